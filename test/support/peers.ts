// Shared by the peers-*.test.ts interop tests: paths of the real peers, a transport that records every
// message in both directions, a check of what mcpwire emitted against the official JSON Schema of the
// revision in use, and a bounded wait for something a peer does on its own.

import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateAgainst } from '../../src/doctor/spec-schema.js';
import type { JsonRpcPayload } from '../../src/jsonrpc/messages.js';
import type { Transport, TransportHandlers } from '../../src/jsonrpc/transport.js';
import { NOTIFICATION_DEFINITIONS, RESULT_DEFINITIONS } from './schema-definitions.js';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const BIN = path.join(REPO_ROOT, 'bin', 'mcpwire.js');
export const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'interop');
export const NODE_BIN = path.join(REPO_ROOT, 'node_modules', '.bin');
export const EVERYTHING_BIN = path.join(NODE_BIN, 'mcp-server-everything');
export const FILESYSTEM_BIN = path.join(NODE_BIN, 'mcp-server-filesystem');

export const MODERN = '2026-07-28';
export const HANDSHAKE = '2025-11-25';

export async function makeTempDir(prefix: string): Promise<string> {
  return realpath(await mkdtemp(path.join(tmpdir(), prefix)));
}

export async function removeDir(directory: string | undefined): Promise<void> {
  if (directory) await rm(directory, { recursive: true, force: true });
}

/** Every message that crossed a connection, by direction, as JSON values. */
export interface Wire {
  /** What this side sent. */
  sent: unknown[];
  /** What the other side sent. */
  received: unknown[];
}

/** Wraps an mcpwire transport so that every message in both directions is kept (copied through JSON). */
export function recording(inner: Transport): { transport: Transport; wire: Wire } {
  const wire: Wire = { sent: [], received: [] };
  const keep = (list: unknown[], payload: unknown) => {
    for (const item of Array.isArray(payload) ? payload : [payload])
      list.push(JSON.parse(JSON.stringify(item)));
  };
  const transport: Transport = {
    start(handlers: TransportHandlers) {
      inner.start({
        ...handlers,
        message: (payload) => {
          keep(wire.received, payload);
          handlers.message(payload);
        },
      });
    },
    send(payload: JsonRpcPayload, options) {
      keep(wire.sent, payload);
      inner.send(payload, options);
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
    // What the inner transport declares and is told goes through unchanged (an HTTP client's exchanges).
    streamPerRequest: inner.streamPerRequest,
    setProtocolVersion: inner.setProtocolVersion?.bind(inner),
  };
  return { transport, wire };
}

type Message = {
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
};

const REQUESTS: Record<string, string> = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'server/discover': 'DiscoverRequest',
  'subscriptions/listen': 'SubscriptionsListenRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'resources/subscribe': 'SubscribeRequest',
  'resources/unsubscribe': 'UnsubscribeRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'completion/complete': 'CompleteRequest',
  'logging/setLevel': 'SetLevelRequest',
  'tasks/get': 'GetTaskRequest',
  'tasks/result': 'GetTaskPayloadRequest',
  'elicitation/create': 'ElicitRequest',
  'sampling/createMessage': 'CreateMessageRequest',
  'roots/list': 'ListRootsRequest',
};

/**
 * Checks every message one side emitted against the official schema of `revision`: each request and
 * notification against the definition of its method, each result against the result definition of the
 * method of the request it answers (found among `wire.received`), each error against JSONRPCErrorResponse.
 * Returns one line per problem; a message of a kind the map does not know is a problem too, so nothing
 * passes unchecked.
 */
export async function schemaProblems(revision: string, wire: Wire): Promise<string[]> {
  const asked = new Map<unknown, string>();
  for (const message of wire.received as Message[]) {
    if (message.method !== undefined && message.id !== undefined) asked.set(message.id, message.method);
  }
  const problems: string[] = [];
  const check = async (definition: string, value: unknown, what: string) => {
    const errors = await validateAgainst(revision, definition, value);
    if (errors.length > 0) problems.push(`${what} is not a valid ${definition}: ${errors.join('; ')}`);
  };
  for (const message of wire.sent as Message[]) {
    const text = JSON.stringify(message).slice(0, 300);
    if (message.method !== undefined) {
      const table = message.id === undefined ? NOTIFICATION_DEFINITIONS : REQUESTS;
      const definition = table[message.method];
      if (!definition) problems.push(`no schema definition is mapped for ${text}`);
      else await check(definition, message, text);
    } else if (message.error !== undefined) {
      await check('JSONRPCErrorResponse', message, text);
    } else {
      await check('JSONRPCResultResponse', message, text);
      const method = asked.get(message.id);
      const definition =
        message.result?.resultType === 'input_required'
          ? 'InputRequiredResult'
          : method === undefined
            ? undefined
            : RESULT_DEFINITIONS[method];
      if (!definition) problems.push(`cannot tell which result ${text} is`);
      else await check(definition, message.result, `${method} result ${text}`);
    }
  }
  return problems;
}

/** The methods of the requests in a list of messages, in order. */
export function requestMethods(messages: unknown[]): string[] {
  return (messages as Message[]).flatMap((m) =>
    m.method !== undefined && m.id !== undefined && m.id !== null ? [m.method] : [],
  );
}

/**
 * Bounded waits for things a peer does on its own (a log message, a notification): `until` resolves with
 * the first value `poll` returns that is not undefined, checking again each time `nudge` is called (wire
 * it to the callback that could make it true), and fails after `ms` naming `what`. The limit is a failure
 * bound, not a synchronisation: the test goes on as soon as the event arrives.
 */
export class Events {
  private readonly waiting = new Set<() => void>();

  nudge(): void {
    for (const wake of [...this.waiting]) wake();
  }

  until<T>(poll: () => T | undefined, ms: number, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const attempt = () => {
        const value = poll();
        if (value === undefined) return;
        this.waiting.delete(attempt);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.waiting.delete(attempt);
        reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
      }, ms);
      this.waiting.add(attempt);
      attempt();
    });
  }
}

/** The text of every text block of a tool or prompt result, joined by newlines. */
export function textOf(result: { content?: unknown }): string {
  const blocks = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return blocks
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n');
}
