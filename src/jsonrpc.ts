// mcpwire/jsonrpc: the JSON-RPC 2.0 engine on its own, for a protocol other than MCP or a transport of
// one's own: the connection, its transport contract and cancellation strategies, the error types and
// codes, and the stdio framing.

export {
  type AbandonedRequest,
  abortCancellation,
  CANCELLED_NOTIFICATION,
  type CancellationStrategy,
  notifyCancellation,
} from './jsonrpc/cancellation.js';
export {
  Connection,
  type ConnectionOptions,
  type ConnectionProblem,
  type NotificationHandler,
  PROGRESS_NOTIFICATION,
  type Progress,
  type RequestContext,
  type RequestHandler,
  type RequestOptions,
} from './jsonrpc/connection.js';
export { ErrorCode } from './jsonrpc/error-codes.js';
export {
  type CloseReason,
  ConnectionClosedError,
  JsonRpcError,
  RequestCancelledError,
  RequestTimeoutError,
} from './jsonrpc/errors.js';
export { McpwireError, type McpwireErrorCode } from './jsonrpc/local-errors.js';
export type {
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcPayload,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccessResponse,
} from './jsonrpc/messages.js';
export type {
  AuthInfo,
  FrameError,
  MessageInfo,
  SendOptions,
  SessionPersistence,
  Transport,
  TransportHandlers,
} from './jsonrpc/transport.js';
export { DEFAULT_MAX_MESSAGE_SIZE, FrameDecoder, type Framing } from './transport/framing/decoder.js';
export { encodeFrame, FrameWriter } from './transport/framing/writer.js';
export { createInMemoryPair, InMemoryTransport } from './transport/memory.js';
export { StreamTransport, type StreamTransportOptions } from './transport/stream.js';
