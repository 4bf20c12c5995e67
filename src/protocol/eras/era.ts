// One interface for the two eras on the server's side, so that ServerSession only routes: a request
// that names its protocol version in `_meta` goes to the stateless era (2026-07-28), everything else to
// the handshake era (initialize, and the session it negotiates).

import type { Connection, RequestContext as ConnectionRequestContext } from '../../jsonrpc/connection.js';
import type { ToolInputError } from '../errors.js';
import type { RequestStateSeal } from '../request-state.js';
import type { ServerDefinition, Session } from '../server-definition.js';
import type { CacheHints } from '../stateless.js';
import type { Subscriptions } from '../subscriptions.js';

/** What an era reaches through: the session's connection, server, subscriptions and settings. */
export interface EraHost {
  readonly connection: Connection;
  readonly server: ServerDefinition;
  readonly session: Session;
  readonly subscriptions: Subscriptions;
  readonly cacheHints: CacheHints;
  /** Signs and checks the requestState of input_required round trips (stateless era). */
  readonly requestState: RequestStateSeal;
  /** Keeps the session's state where other instances of a fleet can read it (nothing on a lone server). */
  persist(): void;
}

export interface ServerEra {
  /** Serves one request of this era; throws a JsonRpcError to answer with an error. */
  serve(
    method: string,
    params: Record<string, unknown> | undefined,
    context: ConnectionRequestContext,
  ): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** Invalid tool arguments as the tool result the later revisions give (isError, the message as text). */
export function toolInputErrorResult(error: ToolInputError): Record<string, unknown> {
  return { content: [{ type: 'text', text: error.message }], isError: true };
}
