// The live wire: every message both ways with its time and latency, faults in red where they happened, a
// response linked to its request, a filter, and the latency of each method.

import { useMemo, useState } from 'preact/hooks';
import { useStore } from './store';
import type { FeedEntry } from './types';
import { VirtualList } from './virtual-list';
import { filterFeed, latencyByMethod, rowOf, summary } from './wire-model';

export function WireView() {
  const store = useStore();
  const [text, setText] = useState('');
  const [faultsOnly, setFaultsOnly] = useState(false);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [chart, setChart] = useState(false);
  const feed = store.feed;
  const version = store.version;
  const indexes = useMemo(
    () => filterFeed(feed, { text, faultsOnly, server: '' }),
    [feed, text, faultsOnly, version],
  );
  const start = feed[0]?.at ?? 0;
  const entry = selected === undefined ? undefined : feed.find((e) => e.seq === selected);
  return (
    <div class="wire">
      <div class="toolbar">
        <input
          class="filter"
          placeholder="Filter by method, server or id"
          value={text}
          data-testid="wire-filter"
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <label>
          <input
            type="checkbox"
            checked={faultsOnly}
            onChange={(e) => setFaultsOnly(e.currentTarget.checked)}
          />{' '}
          faults only
        </label>
        <span class="muted" data-testid="wire-count">
          {indexes.length} of {feed.length} ·{' '}
          <span class={store.faults ? 'bad' : ''}>{store.faults} faults</span>
        </span>
        <button type="button" onClick={() => setChart(!chart)} data-testid="latency-toggle">
          {chart ? 'Messages' : 'Latency by method'}
        </button>
      </div>
      {chart ? (
        <LatencyChart feed={feed} />
      ) : (
        <div class="wire-body">
          <VirtualList
            count={indexes.length}
            rowHeight={22}
            follow
            testId="wire-list"
            class="wire-list"
            row={(i) => {
              const e = feed[indexes[i]!]!;
              const row = rowOf(e);
              return (
                <button
                  type="button"
                  class={`wrow ${row.fault ? 'fault' : ''} ${e.seq === selected ? 'chosen' : ''} ${e.type === 'message' ? e.from : ''}`}
                  data-seq={e.seq}
                  onClick={() => setSelected(e.seq)}
                >
                  <span class="seq">{e.seq}</span>
                  <span class="time">+{((e.at - start) / 1000).toFixed(3)}s</span>
                  <span class="srv">{e.server}</span>
                  <span class="arrow">{row.arrow}</span>
                  <span class="method">{row.label}</span>
                  <span class="id">{row.id}</span>
                  <span class="lat">
                    {e.type === 'message' && e.latencyMs !== undefined ? `${e.latencyMs.toFixed(1)}ms` : ''}
                  </span>
                  <span class="sum">{summary(e)}</span>
                </button>
              );
            }}
          />
          {entry ? <Detail entry={entry} feed={feed} onSelect={setSelected} /> : null}
        </div>
      )}
    </div>
  );
}

function Detail({
  entry,
  feed,
  onSelect,
}: {
  entry: FeedEntry;
  feed: FeedEntry[];
  onSelect: (seq: number) => void;
}) {
  const answer =
    entry.type === 'message' ? feed.find((e) => e.type === 'message' && e.pair === entry.seq) : undefined;
  return (
    <div class="detail" data-testid="wire-detail">
      <div class="toolbar">
        <b>#{entry.seq}</b> {rowOf(entry).label}
        {entry.type === 'message' && entry.pair !== undefined ? (
          <button type="button" class="link" onClick={() => onSelect(entry.pair!)}>
            its request #{entry.pair}
          </button>
        ) : null}
        {answer ? (
          <button type="button" class="link" onClick={() => onSelect(answer.seq)}>
            its answer #{answer.seq}
          </button>
        ) : null}
      </div>
      {entry.type === 'problem' ? (
        <div class="bad">
          {entry.kind} ({entry.from}): {entry.message}
          {entry.bytes !== undefined ? <pre>{entry.bytes}</pre> : null}
        </div>
      ) : null}
      <pre>{JSON.stringify(entry.type === 'message' ? entry.payload : entry, null, 2)}</pre>
    </div>
  );
}

function LatencyChart({ feed }: { feed: FeedEntry[] }) {
  const stats = latencyByMethod(feed);
  const top = Math.max(1, ...stats.map((s) => s.max));
  return (
    <table class="latency" data-testid="latency-chart">
      <thead>
        <tr>
          <th>method</th>
          <th>calls</th>
          <th>errors</th>
          <th>mean</th>
          <th>p50</th>
          <th>p95</th>
          <th>max</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {stats.map((s) => (
          <tr>
            <td>{s.method}</td>
            <td>{s.count}</td>
            <td>{s.errors}</td>
            <td>{s.mean.toFixed(1)}ms</td>
            <td>{s.p50.toFixed(1)}ms</td>
            <td>{s.p95.toFixed(1)}ms</td>
            <td>{s.max.toFixed(1)}ms</td>
            <td class="bars">
              <span class="bar p50" style={{ width: `${(s.p50 / top) * 100}%` }} />
              <span class="bar p95" style={{ width: `${((s.p95 - s.p50) / top) * 100}%` }} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
