// Logs and notifications as they arrive, with the level the servers are asked for.

import { useMemo, useState } from 'preact/hooks';
import { post } from './api';
import { useStore } from './store';
import { VirtualList } from './virtual-list';
import { LEVELS, logEntries, summary } from './wire-model';

export function LogsView() {
  const store = useStore();
  const confirmed = store.state?.level ?? 'info';
  // The level chosen is shown at once; the session's state confirms it once the servers were told.
  const [wanted, setWanted] = useState<string | undefined>(undefined);
  if (wanted !== undefined && wanted === confirmed) setWanted(undefined);
  const level = wanted ?? confirmed;
  const version = store.version;
  const entries = useMemo(() => logEntries(store.feed, level), [store.feed, level, version]);
  return (
    <div class="logs">
      <div class="toolbar">
        <label>
          level{' '}
          <select
            data-testid="log-level"
            value={level}
            onChange={(e) => {
              const chosen = e.currentTarget.value;
              setWanted(chosen);
              post('level', { level: chosen }).catch(() => setWanted(undefined));
            }}
          >
            {LEVELS.map((l) => (
              <option value={l}>{l}</option>
            ))}
          </select>
        </label>
        <span class="muted">{entries.length} entries</span>
      </div>
      <VirtualList
        count={entries.length}
        rowHeight={22}
        follow
        testId="log-list"
        row={(i) => {
          const e = entries[i]!;
          const payload =
            e.type === 'message'
              ? (e.payload as { method?: string; params?: { level?: string; data?: unknown } })
              : undefined;
          const what =
            e.type === 'message'
              ? payload?.method === 'notifications/message'
                ? `[${payload.params?.level}] ${typeof payload.params?.data === 'string' ? payload.params.data : JSON.stringify(payload.params?.data)}`
                : `${payload?.method} ${JSON.stringify(payload?.params ?? {})}`
              : e.type === 'stderr'
                ? `stderr: ${e.text}`
                : summary(e);
          return (
            <div class={`lrow ${e.type}`}>
              <span class="time">{new Date(e.at).toLocaleTimeString()}</span>{' '}
              <span class="srv">{e.server}</span> {what}
            </div>
          );
        }}
      />
    </div>
  );
}
