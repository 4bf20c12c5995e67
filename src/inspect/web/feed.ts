// Everything the inspector saw, in order, for the page: every message of every server in both directions
// (with its latency and, for a response, the request it answers), the faults the wire monitor flags, the
// servers' stderr and what the host reports. The page reads it from any point and is told of new entries
// in batches; a session is exported from it as a trace log that `mcpwire replay` reads.

import type { JsonRpcId } from '../../jsonrpc/messages.js';
import type { TraceRecord } from '../trace-format.js';
import type { Direction, WireMessage, WireProblem } from '../wire-monitor.js';

interface Base {
  /** Its place in the feed, from 1. */
  seq: number;
  /** Wall-clock time, in ms since the epoch. */
  at: number;
  server: string;
}

export type FeedEntry =
  | (Base & {
      type: 'message';
      from: Direction;
      payload: unknown;
      latencyMs?: number;
      answers?: string;
      /** For a response: the seq of the request it answers. */
      pair?: number;
    })
  | (Base & { type: 'problem'; kind: string; from: Direction; message: string; bytes?: string })
  | (Base & { type: 'stderr'; text: string })
  | (Base & { type: 'host'; event: string; detail?: string });

type Input<T> = T extends FeedEntry ? Omit<T, 'seq' | 'at'> : never;

/** How many entries are kept; the oldest go first (a long session must not grow without end). */
export const FEED_LIMIT = 500_000;

export class Feed {
  private entries: FeedEntry[] = [];
  /** seq of the first entry kept. */
  private first = 1;
  private nextSeq = 1;
  /** Requests in flight, by server, sender and id: the seq to pair their response with. */
  private readonly open = new Map<string, number>();
  private readonly listeners = new Set<(entries: FeedEntry[]) => void>();
  private pending: FeedEntry[] = [];
  private flushing = false;

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly limit = FEED_LIMIT,
  ) {}

  get size(): number {
    return this.entries.length;
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  message(server: string, message: WireMessage): void {
    const entry: Input<Extract<FeedEntry, { type: 'message' }>> = {
      server,
      type: 'message',
      from: message.from,
      payload: message.payload,
    };
    if (message.latencyMs !== undefined) entry.latencyMs = message.latencyMs;
    if (message.answers !== undefined) entry.answers = message.answers;
    const { id, request } = idOf(message.payload);
    const other: Direction = message.from === 'client' ? 'server' : 'client';
    if (id !== undefined && !request) {
      const key = `${server}\u0000${other}\u0000${JSON.stringify(id)}`;
      const seq = this.open.get(key);
      if (seq !== undefined) {
        entry.pair = seq;
        this.open.delete(key);
      }
    }
    const added = this.add(entry);
    if (id !== undefined && request)
      this.open.set(`${server}\u0000${message.from}\u0000${JSON.stringify(id)}`, added.seq);
  }

  problem(server: string, problem: WireProblem | (Omit<WireProblem, 'kind'> & { kind: string })): void {
    const entry: Input<Extract<FeedEntry, { type: 'problem' }>> = {
      server,
      type: 'problem',
      kind: problem.kind,
      from: problem.from,
      message: problem.message,
    };
    if (problem.bytes !== undefined) entry.bytes = problem.bytes;
    this.add(entry);
  }

  stderr(server: string, text: string): void {
    this.add({ server, type: 'stderr', text });
  }

  host(server: string, event: string, detail?: string): void {
    this.add(
      detail === undefined ? { server, type: 'host', event } : { server, type: 'host', event, detail },
    );
  }

  /** Entries after `seq`, at most `limit` of them. */
  after(seq: number, limit = 10_000): FeedEntry[] {
    const start = Math.max(0, seq + 1 - this.first);
    return this.entries.slice(start, start + limit);
  }

  /** Told of new entries, a batch at a time (at most once per turn of the event loop). */
  subscribe(listener: (entries: FeedEntry[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One server's part as a jsonl trace log: what `mcpwire trace --format jsonl` writes, and replay reads. */
  traceLog(server: string): string {
    const lines: string[] = [];
    for (const entry of this.entries) {
      if (entry.server !== server) continue;
      const record = traceRecord(entry);
      if (record) lines.push(JSON.stringify(record));
    }
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }

  private add(input: Input<FeedEntry>): FeedEntry {
    const entry = { seq: this.nextSeq++, at: this.clock(), ...input } as FeedEntry;
    this.entries.push(entry);
    if (this.entries.length > this.limit) {
      // Dropped a tenth at a time, so that a full feed does not copy itself on every message.
      const drop = Math.ceil(this.limit / 10);
      this.entries = this.entries.slice(drop);
      this.first += drop;
    }
    this.pending.push(entry);
    if (!this.flushing && this.listeners.size > 0) {
      this.flushing = true;
      setImmediate(() => this.flush());
    } else if (this.listeners.size === 0) this.pending = [];
    return entry;
  }

  private flush(): void {
    this.flushing = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    for (const listener of this.listeners) listener(batch);
  }
}

function traceRecord(entry: FeedEntry): TraceRecord | undefined {
  const time = new Date(entry.at).toISOString();
  switch (entry.type) {
    case 'message': {
      const record: TraceRecord = { type: 'message', time, from: entry.from, payload: entry.payload };
      if (entry.latencyMs !== undefined) record.latencyMs = entry.latencyMs;
      if (entry.answers !== undefined) record.answers = entry.answers;
      return record;
    }
    case 'problem': {
      const record: TraceRecord = {
        type: 'problem',
        time,
        kind: entry.kind as Extract<TraceRecord, { type: 'problem' }>['kind'],
        from: entry.from,
        message: entry.message,
      };
      if (entry.bytes !== undefined) record.bytes = entry.bytes;
      return record;
    }
    case 'stderr':
      return { type: 'stderr', time, text: entry.text };
    case 'host':
      return undefined;
  }
}

/** The id of a message, and whether it is a request (a response otherwise); no id for a notification. */
function idOf(payload: unknown): { id?: JsonRpcId; request: boolean } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { request: false };
  const record = payload as Record<string, unknown>;
  const id = record.id;
  if (typeof id !== 'string' && typeof id !== 'number') return { request: false };
  return { id, request: typeof record.method === 'string' };
}
