// What the wire view shows of each entry, and how it is filtered and summed up: pure functions over the
// feed, so that 100,000 messages are filtered in one pass and the tests can call them.

import type { FeedEntry } from './types.js';

export interface Row {
  /** "→" the client sent it, "←" the server did; "✗" a fault, "·" anything else. */
  arrow: string;
  /** The method, or what answers what ("result of tools/call"). */
  label: string;
  id: string;
  fault: boolean;
}

const rows = new WeakMap<FeedEntry, Row>();

export function rowOf(entry: FeedEntry): Row {
  let row = rows.get(entry);
  if (row) return row;
  row = computeRow(entry);
  rows.set(entry, row);
  return row;
}

function computeRow(entry: FeedEntry): Row {
  switch (entry.type) {
    case 'message': {
      const message = (
        typeof entry.payload === 'object' && entry.payload !== null ? entry.payload : {}
      ) as Record<string, unknown>;
      const arrow = entry.from === 'client' ? '→' : '←';
      const id = message.id === undefined ? '' : JSON.stringify(message.id);
      if (typeof message.method === 'string') return { arrow, label: message.method, id, fault: false };
      const what = 'error' in message ? 'error' : 'result';
      return { arrow, label: entry.answers ? `${what} of ${entry.answers}` : what, id, fault: false };
    }
    case 'problem':
      return { arrow: '✗', label: entry.kind, id: '', fault: true };
    case 'stderr':
      return { arrow: '·', label: 'stderr', id: '', fault: false };
    case 'host':
      return { arrow: '·', label: `server ${entry.event}`, id: '', fault: false };
  }
}

export function summary(entry: FeedEntry, max = 160): string {
  let text: string;
  switch (entry.type) {
    case 'message':
      text = JSON.stringify(entry.payload) ?? '';
      break;
    case 'problem':
      text = entry.message;
      break;
    case 'stderr':
      text = entry.text;
      break;
    case 'host':
      text = entry.detail ?? '';
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export interface WireFilter {
  text: string;
  faultsOnly: boolean;
  server: string;
}

/** The indexes of the entries that pass the filter (the text is matched against method, server and id). */
export function filterFeed(feed: FeedEntry[], filter: WireFilter): number[] {
  const text = filter.text.trim().toLowerCase();
  const out: number[] = [];
  for (let i = 0; i < feed.length; i++) {
    const entry = feed[i]!;
    if (filter.server && entry.server !== filter.server) continue;
    const row = rowOf(entry);
    if (filter.faultsOnly && !row.fault) continue;
    if (
      text &&
      !row.label.toLowerCase().includes(text) &&
      !entry.server.toLowerCase().includes(text) &&
      row.id !== text
    )
      continue;
    out.push(i);
  }
  return out;
}

export interface MethodLatency {
  method: string;
  count: number;
  errors: number;
  mean: number;
  p50: number;
  p95: number;
  max: number;
}

/** Per method: how long its responses took (from the wire monitor's pairing). */
export function latencyByMethod(feed: FeedEntry[]): MethodLatency[] {
  const by = new Map<string, { times: number[]; errors: number }>();
  for (const entry of feed) {
    if (entry.type !== 'message' || entry.latencyMs === undefined || !entry.answers) continue;
    let slot = by.get(entry.answers);
    if (!slot) {
      slot = { times: [], errors: 0 };
      by.set(entry.answers, slot);
    }
    slot.times.push(entry.latencyMs);
    if (typeof entry.payload === 'object' && entry.payload !== null && 'error' in entry.payload)
      slot.errors++;
  }
  return [...by.entries()]
    .map(([method, { times, errors }]) => {
      const sorted = [...times].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
      return {
        method,
        count: sorted.length,
        errors,
        mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
        p50: at(0.5),
        p95: at(0.95),
        max: sorted[sorted.length - 1]!,
      };
    })
    .sort((a, b) => b.count - a.count);
}

/** Logging levels in order, as the protocol lists them. */
export const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The entries the logs view shows: notifications from servers, stderr and host events, from `level` up. */
export function logEntries(feed: FeedEntry[], level: string): FeedEntry[] {
  const floor = Math.max(0, LEVELS.indexOf(level));
  return feed.filter((entry) => {
    if (entry.type === 'stderr' || entry.type === 'host') return true;
    if (entry.type !== 'message' || entry.from !== 'server') return false;
    const message = entry.payload as { method?: unknown; params?: { level?: unknown } };
    if (typeof message?.method !== 'string' || !message.method.startsWith('notifications/')) return false;
    if (message.method !== 'notifications/message') return true;
    return LEVELS.indexOf(String(message.params?.level)) >= floor;
  });
}
