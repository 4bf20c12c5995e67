// Every error code mcpwire puts on the wire or reads from it, in one place, so that no other file writes
// one as a bare number. JSON-RPC 2.0 reserves -32768..-32000; its five codes come first, then the ones
// MCP assigns from the implementation range. The jsonrpc layer is the bottom of the stack, so every layer
// above may use these names.

export const ErrorCode = {
  // JSON-RPC 2.0, section 5.1.
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  // Streamable HTTP: the Mcp-Session-Id names no live session (answered with HTTP 404).
  SessionNotFound: -32001,
  // resources/read of a resource that does not exist (handshake era; invalid params in the stateless era).
  ResourceNotFound: -32002,
  // The stateless revision (2026-07-28).
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  // The user rejected a sampling request (what the specification's sampling page suggests a client send).
  UserRejected: -1,
  // The user must complete a URL elicitation first (2025-11-25).
  UrlElicitationRequired: -32042,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
