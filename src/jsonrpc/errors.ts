// Error codes of JSON-RPC 2.0 and the typed errors the connection raises locally.

import { McpwireError } from './local-errors.js';
import type { JsonRpcErrorObject, JsonRpcId } from './messages.js';

/**
 * An error that travels on the wire. Throw it from a handler to answer with exactly this code, message
 * and data; a request that fails at the peer rejects with one.
 */
export class JsonRpcError extends Error {
  override readonly name: string = 'JsonRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static from(error: JsonRpcErrorObject): JsonRpcError {
    return new JsonRpcError(error.code, error.message, error.data);
  }
}

/** Why a connection closed: the peer ended, a process exited, or an error broke the transport. */
export interface CloseReason {
  /** One sentence for a person, e.g. `server exited with code 1`. */
  message: string;
  exitCode?: number | null;
  signal?: string | null;
  /** The last lines the peer wrote to stderr, when the peer is a child process. */
  stderrTail?: string;
  /** The HTTP status that ended it, when the peer is an HTTP server. */
  httpStatus?: number;
  /** What a person can do about it, when there is something. */
  hint?: string;
  cause?: unknown;
}

export function formatCloseReason(reason: CloseReason): string {
  const tail = reason.stderrTail?.trim();
  return tail ? `${reason.message}; last stderr:\n${tail}` : reason.message;
}

/** A pending request failed because the connection closed before its response arrived. */
export class ConnectionClosedError extends McpwireError {
  override readonly name = 'ConnectionClosedError';
  constructor(
    readonly method: string,
    readonly reason: CloseReason,
  ) {
    super(
      'CONNECTION_CLOSED',
      `connection closed before "${method}" was answered: ${formatCloseReason(reason)}`,
    );
  }
}

/** A request got no response in time. The request has been cancelled at the peer. */
export class RequestTimeoutError extends McpwireError {
  override readonly name = 'RequestTimeoutError';
  constructor(
    readonly method: string,
    readonly id: JsonRpcId,
    readonly timeoutMs: number,
    readonly kind: 'idle' | 'total',
  ) {
    super(
      'REQUEST_TIMEOUT',
      kind === 'idle'
        ? `"${method}" (id ${JSON.stringify(id)}) timed out after ${timeoutMs} ms without a response or progress; raise the "timeout" option to wait longer`
        : `"${method}" (id ${JSON.stringify(id)}) exceeded its maximum total time of ${timeoutMs} ms; raise the "maxTotalTimeout" option to wait longer`,
    );
  }
}

/** A request was aborted through its AbortSignal. The request has been cancelled at the peer. */
export class RequestCancelledError extends McpwireError {
  override readonly name = 'RequestCancelledError';
  constructor(
    readonly method: string,
    readonly reason?: unknown,
  ) {
    super(
      'REQUEST_CANCELLED',
      `"${method}" was cancelled${reason instanceof Error ? `: ${reason.message}` : ''}`,
    );
  }
}
