// The one small interface every transport implements: stdio, child process, in-memory, HTTP.
// Framing, spawning and sockets stay inside the transport; the connection above sees parsed frames only.

import type { CloseReason } from '../jsonrpc/errors.js';
import type { JsonRpcId, JsonRpcPayload } from '../jsonrpc/messages.js';

/** A frame that arrived but cannot be delivered as a message. */
export type FrameError =
  | {
      kind: 'parse';
      /** Why JSON.parse refused it, for the -32700 response. */
      message: string;
      /** The start of the offending bytes, for diagnostics. */
      excerpt: string;
    }
  | {
      kind: 'oversize';
      message: string;
      /** How many bytes the frame had (at least), and the limit it broke. */
      size: number;
      limit: number;
      /** What could be read from the frame's first bytes, so that it can still be answered. */
      id: JsonRpcId | null;
      role: 'request' | 'response' | 'unknown';
    }
  | {
      kind: 'framing';
      message: string;
      excerpt: string;
    };

export interface TransportHandlers {
  /** One parsed frame: a message, a batch, or any JSON value (the connection validates it). */
  message(payload: unknown): void;
  frameError(error: FrameError): void;
  /**
   * The peer will send nothing more, but we may still write (stdin ended, for instance). Answers to
   * requests in flight can still be delivered.
   */
  inputEnded?(): void;
  /** The transport is closed: nothing more can be sent or received. Called once. */
  closed(reason: CloseReason): void;
}

export interface SendOptions {
  /**
   * The incoming request this message belongs to (a progress notification, a log message or a sampling
   * request sent while handling it). Transports with several channels, such as Streamable HTTP, send it on
   * that request's stream; others ignore it.
   */
  relatedRequestId?: JsonRpcId;
}

export interface Transport {
  /** Starts reading. Messages are delivered to the handlers from then on. */
  start(handlers: TransportHandlers): void;
  /**
   * Queues one message or batch for sending. Frames are written in the order they were queued; writes are
   * coalesced and respect the stream's back-pressure.
   */
  send(payload: JsonRpcPayload, options?: SendOptions): void;
  /** Resolves when everything queued so far has been handed to the operating system. */
  flush(): Promise<void>;
  /** Flushes, then closes. Resolves once `closed` has been called. */
  close(): Promise<void>;
}
