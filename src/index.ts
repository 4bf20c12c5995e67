// The public API of mcpwire.

export { McpClient, type McpClientOptions, UnsupportedVersionError } from './client/client.js';
export { type HostConfig, loadConfig, parseConfig } from './host/config.js';
export { type HostOptions, McpHost } from './host/host.js';
export * from './jsonrpc/connection.js';
export * from './jsonrpc/errors.js';
export * from './jsonrpc/messages.js';
export type { FrameError, Transport, TransportHandlers } from './jsonrpc/transport.js';
export type { RequestContext } from './protocol/context.js';
export * from './protocol/errors.js';
export { ServerSession } from './protocol/server-session.js';
export * from './protocol/types.js';
export { HANDSHAKE_VERSIONS, LATEST_HANDSHAKE_VERSION } from './protocol/versions.js';
export { McpServer, type McpServerOptions } from './server/server.js';
export type { ToolDefinition, ToolHandler, ToolOutput } from './server/tools.js';
export { UriTemplate } from './server/uri-template.js';
export { ChildProcessTransport, type ChildProcessTransportOptions } from './transport/child-process.js';
export { DEFAULT_MAX_MESSAGE_SIZE, FrameDecoder, type Framing } from './transport/framing/decoder.js';
export { encodeFrame, FrameWriter } from './transport/framing/writer.js';
export { HttpClientTransport, type HttpClientTransportOptions } from './transport/http/client-transport.js';
export { type EventStore, InMemoryEventStore } from './transport/http/event-store.js';
export { type ListenOptions, listenHttp } from './transport/http/listen.js';
export { createHttpHandler, type HttpHandlerOptions } from './transport/http/server-handler.js';
export { createInMemoryPair, InMemoryTransport } from './transport/memory.js';
export { StdioServerTransport, type StdioServerTransportOptions } from './transport/stdio.js';
export { StreamTransport, type StreamTransportOptions } from './transport/stream.js';
export { tapTransport } from './transport/tap.js';
