// Error codes MCP adds to JSON-RPC's, and the errors the protocol layer raises.

import { ErrorCode } from '../jsonrpc/error-codes.js';
import { JsonRpcError } from '../jsonrpc/errors.js';

export function invalidParams(message: string, data?: unknown): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, message, data);
}

/**
 * A request to the client that the client said it cannot serve (no such capability). A handler that lets
 * it escape answers with -32021 and the capability it needed (what 2026-07-28 names
 * MissingRequiredClientCapabilityError, in the server-defined range on the earlier revisions too), not
 * with an internal error: the server is fine, the client lacks something, and the data says what.
 */
export class CapabilityError extends JsonRpcError {
  override readonly name: string = 'CapabilityError';
  constructor(
    readonly capability: string,
    readonly method: string,
  ) {
    super(
      ErrorCode.MissingRequiredClientCapability,
      `the client did not declare the "${capability}" capability, so "${method}" cannot be sent to it`,
      { requiredCapabilities: requiredCapabilities(capability) },
    );
  }
}

/**
 * The -32021 of the stateless revision and of tasks: `method` needs `capability`, which `declarer` (the
 * request, or the request that started a task) did not declare.
 */
export function missingCapabilityError(capability: string, method: string, declarer: string): JsonRpcError {
  return new JsonRpcError(
    ErrorCode.MissingRequiredClientCapability,
    `"${method}" needs the client capability "${capability}", which ${declarer} did not declare`,
    { requiredCapabilities: requiredCapabilities(capability) },
  );
}

/** `elicitation.url` → `{ elicitation: { url: {} } }`. */
function requiredCapabilities(capability: string): Record<string, unknown> {
  const [head, ...rest] = capability.split('.');
  return { [head!]: rest.length === 0 ? {} : requiredCapabilities(rest.join('.')) };
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
  return new JsonRpcError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
}
