// JSON-RPC 2.0 message types and the plain-code classifier that sorts any parsed value into one of them.
// The envelope is checked by hand, not by a schema library: this runs once per message on the hot path.

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: unknown;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}

export interface JsonRpcSuccessResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** `null` only when the id of the offending request could not be read. */
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** What may travel as one frame: a single message or a JSON-RPC batch. */
export type JsonRpcPayload = JsonRpcMessage | JsonRpcMessage[];

export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; reason: string; id: JsonRpcId | null };

export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The id of a malformed message, when it can be read; JSON-RPC 2.0 §5 says to echo it then. */
function recoverId(value: unknown): JsonRpcId | null {
  return isObject(value) && isJsonRpcId(value.id) ? value.id : null;
}

/**
 * Sorts a parsed JSON value into a request, notification or response, or says why it is not one.
 * Ids are kept as the exact JSON value that arrived: `"1"` stays a string, `1` a number.
 */
export function classify(value: unknown): Classified {
  if (!isObject(value)) {
    return {
      kind: 'invalid',
      reason: `a JSON-RPC message must be an object, got ${describe(value)}`,
      id: null,
    };
  }
  if (value.jsonrpc !== '2.0') {
    return {
      kind: 'invalid',
      reason: `"jsonrpc" must be exactly "2.0", got ${describe(value.jsonrpc)}`,
      id: recoverId(value),
    };
  }
  const hasId = 'id' in value;
  if ('method' in value) {
    if (typeof value.method !== 'string') {
      return {
        kind: 'invalid',
        reason: `"method" must be a string, got ${describe(value.method)}`,
        id: recoverId(value),
      };
    }
    if ('result' in value || 'error' in value) {
      return {
        kind: 'invalid',
        reason: 'a message cannot carry both "method" and "result"/"error"',
        id: recoverId(value),
      };
    }
    if ('params' in value && !(typeof value.params === 'object' && value.params !== null)) {
      return {
        kind: 'invalid',
        reason: `"params" must be an object or an array, got ${describe(value.params)}`,
        id: recoverId(value),
      };
    }
    if (!hasId) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isJsonRpcId(value.id)) {
      return {
        kind: 'invalid',
        reason: `a request "id" must be a string or a number, got ${describe(value.id)}`,
        id: null,
      };
    }
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) {
    return {
      kind: 'invalid',
      reason: hasResult
        ? 'a response cannot carry both "result" and "error"'
        : 'a message needs "method" (request or notification) or "result"/"error" (response)',
      id: recoverId(value),
    };
  }
  if (hasError) {
    const error = value.error;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return {
        kind: 'invalid',
        reason: '"error" must be an object with an integer "code" and a string "message"',
        id: recoverId(value),
      };
    }
    if (!(value.id === null || isJsonRpcId(value.id))) {
      return {
        kind: 'invalid',
        reason: 'an error response "id" must be a string, a number or null',
        id: null,
      };
    }
    return { kind: 'response', message: value as unknown as JsonRpcErrorResponse };
  }
  if (!isJsonRpcId(value.id)) {
    return { kind: 'invalid', reason: 'a success response "id" must be a string or a number', id: null };
  }
  return { kind: 'response', message: value as unknown as JsonRpcSuccessResponse };
}

export function isErrorResponse(message: JsonRpcResponse): message is JsonRpcErrorResponse {
  return 'error' in message;
}

/** A short description of a value for error messages: its type and, when small, the value itself. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
}
