// What `mcpwire replay` re-sends and expects, read from a trace log (`mcpwire trace --format jsonl`, over
// stdio or --http): the client's side of each recorded connection, in its recorded order, with the
// server's recorded answers to compare against. A connection is the whole log on stdio, and one session
// (or everything outside sessions) over HTTP. And how two answers are compared: with the fields that
// depend on timing normalised, as a list of the places where they differ.

import { classify, type JsonRpcId } from '../jsonrpc/messages.js';

export type ReplayStep =
  /** Send this client message as recorded. */
  | { kind: 'send'; message: Record<string, unknown>; method?: string }
  /** The server answered the client's request `id` here: wait for the new answer, compare it. */
  | { kind: 'expect-response'; id: JsonRpcId; method: string; recorded: Record<string, unknown> }
  /** The server sent a request here (sampling, elicitation, roots): wait for the new one of this method. */
  | { kind: 'expect-request'; recordedId: JsonRpcId; method: string }
  /** The client answered the server's request `recordedId`: send the answer to the new one. */
  | { kind: 'answer'; recordedId: JsonRpcId; message: Record<string, unknown> };

export interface ReplayConversation {
  /** The session it was recorded in, if any. */
  session?: string;
  steps: ReplayStep[];
}

export class ReplayLogError extends Error {}

/** The conversations of a jsonl trace log; a ReplayLogError that says what is wrong with it otherwise. */
export function readReplayScript(text: string): ReplayConversation[] {
  const conversations = new Map<string, ReplayConversation>();
  /** Per conversation: the client's requests still unanswered in the recording, by id. */
  const pending = new Map<string, Map<JsonRpcId, string>>();
  let lineNumber = 0;
  let messages = 0;
  for (const line of text.split('\n')) {
    lineNumber++;
    if (line.trim() === '') continue;
    let record: { type?: unknown; from?: unknown; payload?: unknown; session?: unknown };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      throw new ReplayLogError(
        `line ${lineNumber} is not JSON: replay reads the jsonl format of mcpwire trace (--format jsonl)`,
      );
    }
    if (record.type !== 'message') continue;
    messages++;
    const key = typeof record.session === 'string' ? record.session : '';
    let conversation = conversations.get(key);
    if (!conversation) {
      conversation = key ? { session: key, steps: [] } : { steps: [] };
      conversations.set(key, conversation);
      pending.set(key, new Map());
    }
    const open = pending.get(key)!;
    const c = classify(record.payload);
    const payload = record.payload as Record<string, unknown>;
    if (record.from === 'client') {
      if (c.kind === 'request') {
        open.set(c.message.id, c.message.method);
        conversation.steps.push({ kind: 'send', message: payload, method: c.message.method });
      } else if (c.kind === 'notification') {
        conversation.steps.push({ kind: 'send', message: payload, method: c.message.method });
      } else if (c.kind === 'response' && c.message.id !== null) {
        conversation.steps.push({ kind: 'answer', recordedId: c.message.id, message: payload });
      }
    } else if (record.from === 'server') {
      if (c.kind === 'request') {
        conversation.steps.push({
          kind: 'expect-request',
          recordedId: c.message.id,
          method: c.message.method,
        });
      } else if (c.kind === 'response' && c.message.id !== null && open.has(c.message.id)) {
        const method = open.get(c.message.id)!;
        open.delete(c.message.id);
        conversation.steps.push({ kind: 'expect-response', id: c.message.id, method, recorded: payload });
      }
    }
  }
  if (messages === 0) {
    throw new ReplayLogError(
      'the log holds no messages: record one with mcpwire trace --format jsonl --log FILE',
    );
  }
  return [...conversations.values()];
}

/** Keys whose values depend on when something ran, not on what the server does. */
const TIMING_KEY =
  /^(timestamp|time|date|datetime|elapsed|duration|latency|uptime)$|[a-z](At|Ms|Time|Timestamp)$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

export interface Difference {
  /** Where, as `result.content[0].text`. */
  path: string;
  /** The recorded value and the new one; undefined where one side has nothing. */
  recorded?: unknown;
  now?: unknown;
}

/**
 * Where two answers differ, after normalising: the id (each side's own), timestamps in strings, the
 * values of timing keys (timestamp, duration, …, and names ending in At, Ms, Time), and the keys in
 * `ignore`, wherever they are. At most `limit` differences.
 */
export function compareAnswers(
  recorded: unknown,
  now: unknown,
  ignore: ReadonlySet<string> = new Set(),
  limit = 10,
): Difference[] {
  const found: Difference[] = [];
  const walk = (a: unknown, b: unknown, path: string, key: string | undefined) => {
    if (found.length >= limit) return;
    if (
      key !== undefined &&
      (ignore.has(key) || (TIMING_KEY.test(key) && a !== undefined && b !== undefined))
    )
      return;
    if (typeof a === 'string' && typeof b === 'string' && ISO_TIME.test(a) && ISO_TIME.test(b)) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}[${i}]`, undefined);
      return;
    }
    if (isObject(a) && isObject(b)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const k of keys) walk(a[k], b[k], path === '' ? k : `${path}.${k}`, k);
      return;
    }
    if (a === b) return;
    const difference: Difference = { path: path === '' ? '(the whole answer)' : path };
    if (a !== undefined) difference.recorded = a;
    if (b !== undefined) difference.now = b;
    found.push(difference);
  };
  const strip = (value: unknown) => {
    if (!isObject(value)) return value;
    const { id: _id, ...rest } = value;
    return rest;
  };
  walk(strip(recorded), strip(now), '', undefined);
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
