// What a session needs to know of the server it serves, and what the server (and its handlers) can see
// of a session. Kept apart from ServerSession so that the eras and the server layer depend on these
// shapes, not on the class that routes between them.

import type { RequestContext } from './context.js';
import type { ClientCapabilities, Implementation, ServerCapabilities } from './types.js';

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
  sessionClosed?(session: Session): void;
  /** A URI gained its first subscriber on this session, or lost its last one. */
  subscriptionChanged?(session: Session, uri: string, subscribed: boolean): void;
  /** Notifications from the client other than the lifecycle's (roots/list_changed, say). */
  clientNotification?(method: string, params: unknown, session: Session): void;
}
