// The page's one store: the session's state, the whole feed (kept as a plain array, not copied per
// message), the asks waiting for the person and the progress of calls. Components re-render at most once
// per animation frame, however many messages arrive.

import { useEffect, useState } from 'preact/hooks';
import { events, get } from './api';
import type { Ask, FeedEntry, SessionEvent, SessionState } from './types';

export const store = {
  state: undefined as SessionState | undefined,
  feed: [] as FeedEntry[],
  faults: 0,
  asks: [] as Ask[],
  progress: new Map<string, { progress: number; total?: number; message?: string }>(),
  updates: [] as Array<{ server: string; uri: string; at: number }>,
  connected: false,
  error: '',
  /** Bumped on every change: what memoised views key on. */
  version: 0,
};

const listeners = new Set<() => void>();
let scheduled = false;

export function changed(): void {
  store.version++;
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    for (const listener of listeners) listener();
  });
}

export function useStore(): typeof store {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((t) => t + 1);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return store;
}

function append(entries: FeedEntry[]): void {
  const last = store.feed.length === 0 ? 0 : store.feed[store.feed.length - 1]!.seq;
  for (const entry of entries) {
    if (entry.seq <= last) continue;
    store.feed.push(entry);
    if (entry.type === 'problem') store.faults++;
  }
}

export async function refreshState(): Promise<void> {
  try {
    store.state = await get<SessionState>('/api/state');
    store.asks = store.state.asks;
    store.error = '';
  } catch (error) {
    store.error = (error as Error).message;
  }
  changed();
}

/** Connects: the live stream first (so that nothing is missed), then the feed so far, page by page. */
export async function connect(): Promise<void> {
  const source = events();
  let loading = true;
  const early: FeedEntry[] = [];
  source.addEventListener('feed', (event) => {
    const entries = JSON.parse((event as MessageEvent).data) as FeedEntry[];
    if (loading) early.push(...entries);
    else append(entries);
    changed();
  });
  source.addEventListener('session', (event) => {
    const message = JSON.parse((event as MessageEvent).data) as SessionEvent;
    if (message.type === 'state') void refreshState();
    else if (message.type === 'ask') store.asks = [...store.asks, message.ask];
    else if (message.type === 'asked') store.asks = store.asks.filter((a) => a.id !== message.id);
    else if (message.type === 'progress') store.progress.set(message.callId, message);
    else if (message.type === 'updated') store.updates = [...store.updates, { ...message, at: Date.now() }];
    changed();
  });
  source.onopen = () => {
    store.connected = true;
    changed();
    // Back after a break (or a stream the server closed because the page fell behind): what came
    // meanwhile is fetched, the feed and the state (the asks waiting), since the stream only carries what is new.
    if (!loading) {
      void refreshState();
      void catchUp();
    }
  };
  source.onerror = () => {
    store.connected = false;
    changed();
  };
  await refreshState();
  await catchUp();
  loading = false;
  append(early);
  changed();
}

/** The feed after the last entry the page has, page by page. */
async function catchUp(): Promise<void> {
  for (;;) {
    const after = store.feed.length === 0 ? 0 : store.feed[store.feed.length - 1]!.seq;
    const page = await get<FeedEntry[]>(`/api/feed?after=${after}&limit=20000`);
    append(page);
    changed();
    if (page.length < 20_000) break;
  }
}
