// How an outgoing request is cancelled once its sender gives up on it (the caller aborted, or it timed
// out). A strategy of the connection, as in vscode-jsonrpc, because the way differs by transport and not
// by request: on a stream shared by every message the peer is sent a cancellation notification; on a
// transport with a stream per request, closing that stream is the cancellation and a notification would
// be a message about a request the peer can no longer see (2026-07-28 over Streamable HTTP).

import type { JsonRpcId } from './messages.js';
import type { SendOptions } from './transport.js';
import { withKeys } from './with-keys.js';

/** MCP's name for the notification that cancels a request (JSON-RPC itself names none). */
export const CANCELLED_NOTIFICATION = 'notifications/cancelled';

/** A request its sender gave up on, as a strategy sees it. */
export interface AbandonedRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  /** Why, for a person: the timeout, or the reason the caller aborted with. */
  readonly reason: string;
  /** The options the request was sent with (as `attach` returned them). */
  readonly sendOptions: SendOptions | undefined;
  /** Sends a notification on the request's connection. */
  notify(method: string, params: unknown): void;
}

export interface CancellationStrategy {
  /**
   * The options a request is sent with, given those it was asked to go with: a strategy that cancels
   * through the transport adds what it will need (an abort signal). Left out, they go as they are.
   */
  attach?(options: SendOptions | undefined): SendOptions | undefined;
  /** The request was abandoned before its answer: tell the peer, in this strategy's way. */
  cancel(request: AbandonedRequest): void;
}

/** The default: a `notifications/cancelled` naming the request and why. */
export const notifyCancellation: CancellationStrategy = {
  cancel(request) {
    request.notify(CANCELLED_NOTIFICATION, { requestId: request.id, reason: request.reason });
  },
};

/**
 * The controller of the signal attached to a request's options, kept on the options themselves: nothing
 * to clean up when the request is answered. A WeakMap keyed by them cost some 2 µs a request in Node 20.
 */
const CONTROLLER = Symbol('mcpwire.abortController');

type Attached = SendOptions & { [CONTROLLER]?: AbortController };

/**
 * For a transport with a stream per request: each request goes with an abort signal of its own, and
 * cancelling it aborts the signal, so the transport closes the request's stream. No notification is sent.
 */
export const abortCancellation: CancellationStrategy = {
  attach(options) {
    const controller = new AbortController();
    return withKeys(options, { signal: controller.signal, [CONTROLLER]: controller });
  },
  cancel(request) {
    (request.sendOptions as Attached | undefined)?.[CONTROLLER]?.abort(request.reason);
  },
};
