// What the Streamable HTTP endpoint asks of the protocol it carries. The endpoint knows HTTP: methods,
// headers, bodies, SSE, sessions and resumption. Which message opens a session, and which POST stands
// alone with no session, are the protocol's to say; src/protocol/http/binding.ts says it for MCP.

import type { JsonRpcId, JsonRpcPayload, JsonRpcRequest } from '../../jsonrpc/messages.js';

/** What to do with a POST that stands outside the sessions. */
export type StandaloneDecision =
  /** Serve it on an exchange of its own: a transport for this one request, answered on its POST. */
  | { kind: 'exchange'; id: JsonRpcId }
  /** Answer it with this error, and this HTTP status. */
  | { kind: 'refuse'; status: number; code: number; message: string; id: JsonRpcId | null }
  /** Nothing to serve: 202 Accepted. */
  | { kind: 'accepted' };

export interface HttpBinding {
  /** Protocol versions the MCP-Protocol-Version header of a session's request may name. */
  readonly sessionVersions: readonly string[];
  /** Whether this request, sent on its own, opens a session. */
  opensSession(request: JsonRpcRequest): boolean;
  /** For a POST's parsed body: undefined when it belongs to a session, else what to do with it. */
  standalone(body: unknown, header: (name: string) => string | undefined): StandaloneDecision | undefined;
  /** The HTTP status of a standalone exchange's answer. */
  answerStatus(payload: JsonRpcPayload): number;
  /**
   * The state a session starts with when a request is served without one (sessionless serving: no
   * session id, any instance serves any POST), given the protocol version the request's header names.
   */
  sessionlessState?(protocolVersion: string | undefined): Record<string, unknown>;
  /** The request a client notification is about (a cancellation), so that a fleet routes it to that request. */
  concerns?(notification: unknown): JsonRpcId | undefined;
}
