// The one context every server handler gets, whichever protocol revision (or era) delivered the request.
// Handlers read the negotiated version and the client's capabilities here, never from the wire.

import type { JsonRpcId } from '../jsonrpc/messages.js';
import type { AuthInfo } from '../jsonrpc/transport.js';
import type { Extensions } from './extensions.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
} from './types.js';

export interface AskOptions {
  /** Milliseconds to wait for the client's answer (the connection's default otherwise). */
  timeout?: number;
  /**
   * The name of this input request in a 2026-07-28 round trip (`inputRequests` and `inputResponses` are
   * keyed by it); the n-th ask of its method (`elicitation/create#1`) otherwise. Asks made together
   * (`Promise.all`) go to the client in one input_required result.
   */
  key?: string;
}

/** Turns the request into a task (the tasks extension): offered only when the client declared it. */
export interface TaskStarter {
  /**
   * Runs `work` as a task and resolves, once the task is stored, with the CreateTaskResult to answer the
   * request with. `work` gets the task's own context: its signal is aborted by tasks/cancel or expiry,
   * its asks wait for tasks/update, and its progress becomes the task's status message.
   */
  start(
    work: (context: RequestContext) => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>>;
}

export interface RequestContext {
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  readonly requestId: JsonRpcId;
  /** The protocol revision this request speaks. */
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /**
   * Storage that lives as long as the client's session: a cache of the client's roots, say. A request
   * that belongs to no session (the stateless revision) gets a fresh, empty map.
   */
  readonly sessionState: Map<unknown, unknown>;
  /**
   * Who is calling, when the server checks authorization (Streamable HTTP with a bearer token): subject,
   * OAuth client, scopes and claims, never the token itself. Undefined on stdio and on an open server.
   */
  readonly auth: AuthInfo | undefined;
  /**
   * The extensions in use for this request (SEP-2133): those the server offers and the client declared,
   * each with the client's settings. Empty when the client declared none.
   */
  readonly extensions: Extensions;
  /**
   * Set when this request may become a task: the server runs tasks and the client declared the tasks
   * extension on this request (2026-07-28). Undefined otherwise, and inside a task.
   */
  readonly tasks: TaskStarter | undefined;
  /**
   * Reports progress if the client asked for it. Values must increase; one that does not is dropped.
   * Nothing is sent after the response.
   */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends a log message to the client if it passes the client's level. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** Asks the client's model for a completion (needs the client's `sampling` capability). */
  sample(params: CreateMessageRequestParams, options?: AskOptions): Promise<CreateMessageResult>;
  /** Asks the user, through the client, for input (needs the client's `elicitation` capability). */
  elicit(params: ElicitRequestParams, options?: AskOptions): Promise<ElicitResult>;
  /** Asks the client for its roots (needs the client's `roots` capability). */
  listRoots(options?: AskOptions): Promise<ListRootsResult>;
}
