// The contract between the connection and whatever carries its messages: stdio, a child process, memory,
// Streamable HTTP. It lives here, beside the connection that uses it (as vscode-jsonrpc keeps its reader
// and writer interfaces), so that the transports depend on the jsonrpc layer and never the other way.
// A transport carries: framing, spawning and sockets stay inside it, and it never reads the protocol.
// What it may need to know of a message (headers, whether it stands alone, when to give up on it) comes
// with the message in SendOptions; what it may need to know of the session comes through the optional
// methods below.

import type { CloseReason } from './errors.js';
import type { JsonRpcId, JsonRpcPayload } from './messages.js';

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

/**
 * Who sent a message, as the transport verified it (an HTTP transport that checked a bearer token). Never
 * the credential itself: handlers see who the caller is, not the token they could replay elsewhere.
 */
export interface AuthInfo {
  /** The token's subject (`sub`): the user or machine it was issued to. */
  readonly subject: string | undefined;
  /** The OAuth client the token was issued to (`client_id` or `azp`). */
  readonly clientId: string | undefined;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt: number | undefined;
  /** The authorization server that issued it (`iss`). */
  readonly issuer: string | undefined;
  /** Every claim of the token (or of its introspection), for what the fields above leave out. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** What a transport knows of one incoming message besides its content. */
export interface MessageInfo {
  /** The verified caller, when the transport authenticates its peer. */
  auth?: AuthInfo;
  /**
   * A request of the peer that came on the stream of one of ours (an HTTP POST's SSE stream): the id of
   * that request of ours, so that what the peer asks is known to be asked on its behalf.
   */
  relatedRequestId?: JsonRpcId;
}

export interface TransportHandlers {
  /**
   * One parsed frame: a message, a batch, or any JSON value (the connection validates it), with what the
   * transport knows of who sent it.
   */
  message(payload: unknown, info?: MessageInfo): void;
  frameError(error: FrameError): void;
  /**
   * The peer will send nothing more, but we may still write (stdin ended, for instance). Answers to
   * requests in flight can still be delivered.
   */
  inputEnded?(): void;
  /**
   * The transport holds what it was given (true) until something outside the peer is done (false): an
   * HTTP client waiting for a person to log in, say. Timeouts measure the peer, so the connection's stand
   * still meanwhile; a probe that gave up on a server while its user was logging in would wrongly decide
   * the server is of another kind. Holds may overlap: each true is followed by one false.
   */
  held?(holding: boolean): void;
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
  /** Headers for this message alone, on a transport that has them (HTTP); others ignore them. */
  headers?: Record<string, string>;
  /**
   * Send this message outside any session, on an exchange of its own (the stateless revision's requests
   * over HTTP: no Mcp-Session-Id, its answer on its own stream). Ignored by transports without sessions.
   */
  standalone?: boolean;
  /**
   * Aborted when the sender gives up on the message: a transport with a stream per request closes that
   * stream, which is how such a request is cancelled. Others ignore it.
   */
  signal?: AbortSignal;
  /**
   * Best effort: a transport whose peer is not reading may drop it rather than queue it (the answers to
   * a flood of junk, which would otherwise pile up without bound behind a peer that never reads).
   */
  droppable?: boolean;
}

/**
 * What a transport that shares its session with other server instances (Streamable HTTP in a fleet)
 * keeps of the protocol's state of it. The state is the protocol's: the transport stores it unread.
 */
export interface SessionPersistence {
  /** The state stored when this transport was made (another instance may have served the session before). */
  readonly initial: Record<string, unknown> | undefined;
  /**
   * The protocol's session that keeps its state here, told of what changes under it. One object rather than
   * a listener per event: an idle session's copy on each instance of a fleet is paid for in heap (issue 18).
   */
  attach(owner: PersistedSession): void;
  /** Stores the state; what is sent after this call waits until it is stored. */
  save(state: Record<string, unknown>): void;
  /**
   * Whether messages that belong to no request reach the client from this instance: one instance per
   * session (the one holding its GET stream) answers events that every instance hears.
   */
  home(): boolean;
}

/** The protocol's side of SessionPersistence. */
export interface PersistedSession {
  /** The stored state, read anew by the transport, before the message it came with. */
  restore(state: Record<string, unknown>): void;
  /** `home()` may have changed (this instance took the GET stream, or another did). */
  homeChanged(): void;
}

export interface Transport {
  /** Set when the session's state must be kept outside this process (see SessionPersistence). */
  readonly persistence?: SessionPersistence;
  /**
   * Whether a message sent `standalone` gets an exchange of its own, which closing cancels (Streamable
   * HTTP's client). The connection then cancels such a request by aborting its signal instead of
   * sending a cancellation notification.
   */
  readonly streamPerRequest?: boolean;
  /**
   * Whether messages may hold StreamedString values (jsonrpc/streamed.ts), written as they are read.
   * Otherwise the connection reads each into an ordinary string before it sends the message.
   */
  readonly splicing?: boolean;
  /**
   * Told the protocol version the session negotiated, before the first message sent under it. A transport
   * that must name it on the wire (Streamable HTTP's MCP-Protocol-Version header) does so from then on.
   */
  setProtocolVersion?(version: string): void;
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
  /**
   * A request the peer sent will never be answered: the peer cancelled it. A transport that keeps
   * something until each request's answer (Streamable HTTP: the session counts as busy) lets it go.
   */
  unanswered?(id: JsonRpcId): void;
}
