// What a session needs to know of the server it serves, and what the server (and its handlers) can see
// of a session. Kept apart from ServerSession so that the eras and the server layer depend on these
// shapes, not on the class that routes between them.

import type { RequestContext } from './context.js';
import type { TaskManager } from './tasks/manager.js';
import type { ClientCapabilities, Implementation, LoggingLevel, ServerCapabilities } from './types.js';

/** What a client said of itself in initialize, as a server that prepares per session sees it. */
export interface OpeningRequest {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
}

/** What a session's initialize result says of the server, when it differs from the definition's own. */
export interface SessionDescription {
  info: Implementation;
  capabilities: ServerCapabilities;
  instructions: string | undefined;
}

export type ListKind = 'tools' | 'resources' | 'prompts';

/** One client's connection as the server sees it, whatever the era. */
export interface Session {
  /** Per-session storage, handed to handlers as `context.sessionState`. */
  readonly state: Map<unknown, unknown>;
  /** The revision negotiated with initialize (handshake era only). */
  readonly protocolVersion: string | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** Whether any subscription of this session, in either era, covers the URI. */
  isSubscribed(uri: string): boolean;
  /** resources/subscribe and resources/unsubscribe (handshake era). */
  setSubscription(uri: string, subscribed: boolean): void;
}

export type ServerRequestHandler = (
  params: Record<string, unknown>,
  context: RequestContext,
  session: Session,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

export interface ServerDefinition {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  capabilities(): ServerCapabilities;
  handler(method: string): ServerRequestHandler | undefined;
  /** The tasks extension's manager, when the server runs tasks (tasks/get, tasks/update, tasks/cancel). */
  readonly tasks?: TaskManager | undefined;
  /**
   * 2026-07-28: the server hands input rounds and tasks on to another server (a proxy). Its handlers see
   * `inputResponses` and `requestState` as they came, the request state is opened only when a handler asks
   * something itself (it may be another server's), and tasks/get, tasks/update and tasks/cancel go to its
   * handlers when it runs no tasks of its own.
   */
  readonly forwardsInput?: boolean;
  sessionClosed?(session: Session): void;
  /**
   * Called at initialize, before it is answered, by a server that prepares something per session (a
   * proxy starts the server behind it with the client's own revision and capabilities). What it returns
   * describes the server in this session's initialize result; an error it throws is the answer.
   */
  openSession?(session: Session, request: OpeningRequest): Promise<SessionDescription | undefined>;
  /**
   * What server/discover says, for a server that must find out first (a proxy asks the server behind
   * it); the definition's own info and capabilities otherwise.
   */
  describe?(): Promise<SessionDescription>;
  /** The client set its logging level with logging/setLevel (handshake era). */
  loggingLevelChanged?(session: Session, level: LoggingLevel): void;
  /** A URI gained its first subscriber on this session, or lost its last one. */
  subscriptionChanged?(session: Session, uri: string, subscribed: boolean): void;
  /** Notifications from the client other than the lifecycle's (roots/list_changed, say). */
  clientNotification?(method: string, params: unknown, session: Session): void;
}
