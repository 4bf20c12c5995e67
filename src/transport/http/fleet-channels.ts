// The bus channels of a Streamable HTTP fleet, and what travels on them. One place names them, so that
// the endpoint (server-handler.ts) and each session (session-transport.ts) agree.

import type { JsonRpcId, JsonRpcMessage } from '../../jsonrpc/messages.js';
import type { MessageBus } from '../bus.js';
import type { SessionStore } from './session-store.js';

export const channels = {
  /** Messages for one instance: the answer to a request it sent to a client. */
  instance: (id: string) => `mcpwire:instance:${id}`,
  /** Messages for every instance: a session ended, a cancellation, a GET stream taken. */
  fleet: 'mcpwire:fleet',
  /** The events of one SSE stream, for the instance that holds its response. */
  stream: (id: string) => `mcpwire:stream:${id}`,
};

export type FleetMessage =
  /** The client answered a request that instance sent (on `instance`). */
  | { t: 'response'; s: string; m: JsonRpcMessage }
  /** The session ended: every instance drops its copy. */
  | { t: 'end'; s: string }
  /** A client notification about request `id`, for the instance running it. */
  | { t: 'forward'; s: string; id: JsonRpcId; m: unknown }
  /** Instance `i` now holds the session's GET stream. */
  | { t: 'home'; s: string; i: string }
  /** The session's state changed (a subscription, the log level): every copy takes it up. */
  | { t: 'state'; s: string; i: string; state: Record<string, unknown> };

/** An event of a stream, or its end. */
export type StreamMessage = { e: string; m: JsonRpcMessage } | { end: true };

/** What a session of a fleet shares with the other instances. */
export interface SessionFleet {
  bus: MessageBus;
  store: SessionStore;
  /** The session's idle expiry in the store, in ms. */
  ttlMs: number;
  /** The request a client notification concerns (a cancellation): it must reach the instance running it. */
  concerns(message: unknown): JsonRpcId | undefined;
  /** How often a stream resumed from another instance checks that the instance is alive, in ms. */
  livenessInterval: number;
}

/**
 * A POST stream's id in a fleet names the instance that runs its requests and the ids it answers, so
 * that another instance resuming it knows whom to watch and what to fail if that instance died.
 */
export function fleetStreamId(instanceId: string, uuid: string, ids: JsonRpcId[]): string {
  const encoded = Buffer.from(JSON.stringify(ids)).toString('base64url');
  return encoded.length <= 256 ? `${instanceId}~${uuid}~${encoded}` : `${instanceId}~${uuid}`;
}

export function parseFleetStreamId(streamId: string): { instance: string; ids: JsonRpcId[] | undefined } {
  const [instance = '', , encoded] = streamId.split('~');
  let ids: JsonRpcId[] | undefined;
  try {
    ids = encoded ? (JSON.parse(Buffer.from(encoded, 'base64url').toString()) as JsonRpcId[]) : undefined;
  } catch {
    ids = undefined;
  }
  return { instance, ids };
}
