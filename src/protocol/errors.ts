// Error codes MCP adds to JSON-RPC's, and the errors the protocol layer raises.

import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';

export const McpErrorCode = {
  ...ErrorCode,
  /** resources/read of a resource that does not exist (handshake era). */
  ResourceNotFound: -32002,
  /** The user must complete a URL elicitation first (2025-11-25). */
  UrlElicitationRequired: -32042,
} as const;

export function invalidParams(message: string, data?: unknown): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, message, data);
}

/** A request to the client that the client said it cannot serve (no such capability). */
export class CapabilityError extends Error {
  override readonly name = 'CapabilityError';
  constructor(
    readonly capability: string,
    readonly method: string,
  ) {
    super(`the client did not declare the "${capability}" capability, so "${method}" cannot be sent to it`);
  }
}

/**
 * A tool was called with arguments its input schema refuses. How it reaches the client depends on the
 * revision: a tool result with isError (2025-11-25) or a -32602 error (earlier revisions).
 */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
  constructor(
    readonly tool: string,
    readonly issues: string[],
  ) {
    super(`Invalid arguments for tool "${tool}": ${issues.join('; ')}`);
  }
}

/** resources/read of a URI no resource or template serves. */
export function resourceNotFound(uri: string): JsonRpcError {
  return new JsonRpcError(McpErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
}
