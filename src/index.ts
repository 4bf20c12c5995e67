// The public API of mcpwire.

export * from './jsonrpc/connection.js';
export * from './jsonrpc/errors.js';
export * from './jsonrpc/messages.js';
export { ChildProcessTransport, type ChildProcessTransportOptions } from './transport/child-process.js';
export { DEFAULT_MAX_MESSAGE_SIZE, FrameDecoder, type Framing } from './transport/framing/decoder.js';
export { encodeFrame, FrameWriter } from './transport/framing/writer.js';
export { createInMemoryPair, InMemoryTransport } from './transport/memory.js';
export { StdioServerTransport, type StdioServerTransportOptions } from './transport/stdio.js';
export { StreamTransport, type StreamTransportOptions } from './transport/stream.js';
export type { FrameError, Transport, TransportHandlers } from './transport/transport.js';
