// The inspector's page: the servers across the top, a tab for each thing to inspect, the live wire, and
// the dialogs a server's requests open.

import { render } from 'preact';
import { useState } from 'preact/hooks';
import { post } from './api';
import { AskDialog } from './dialogs';
import { LogsView } from './logs';
import { DoctorView, ExportLinks, RootsView } from './more';
import { PromptsView } from './prompts';
import { ResourcesView } from './resources';
import { ServersView } from './servers';
import { connect, useStore } from './store';
import { ToolsView } from './tools';
import { WireView } from './wire';

const TABS = ['Tools', 'Resources', 'Prompts', 'Wire', 'Logs', 'Roots', 'Doctor', 'Servers'] as const;
type Tab = (typeof TABS)[number];

function App() {
  const store = useStore();
  const [tab, setTab] = useState<Tab>('Tools');
  const [opened, setOpened] = useState<{ server: string; uri: string } | undefined>(undefined);
  const state = store.state;
  const ask = store.asks[0];
  return (
    <div class="app" data-ready={state ? 'yes' : 'no'}>
      <header>
        <b class="brand">mcpwire inspect</b>
        <span class="servers">
          {(state?.servers ?? []).map((s) => (
            <span
              class={`server ${s.state}`}
              data-testid={`server-${s.name}`}
              title={s.error ?? s.instructions ?? ''}
            >
              <i class="dot" /> {s.name}{' '}
              {s.serverInfo ? `· ${s.serverInfo.name} ${s.serverInfo.version}` : ''}{' '}
              {s.protocolVersion ? `· ${s.protocolVersion}` : ''} {s.transport ? `· ${s.transport}` : ''} ·{' '}
              {s.state}
              {s.state !== 'ready' && s.error ? ` (${s.error})` : ''}
              <button
                type="button"
                class="small"
                title="start it again"
                onClick={() => void post('restart', { server: s.name })}
              >
                ↻
              </button>
            </span>
          ))}
        </span>
        <span class={`live ${store.connected ? 'on' : 'off'}`}>
          {store.connected ? 'live' : 'disconnected'}
        </span>
        <ExportLinks />
      </header>
      {store.error ? <div class="bad banner">{store.error}</div> : null}
      <nav>
        {TABS.map((t) => (
          <button type="button" class={t === tab ? 'chosen' : ''} data-tab={t} onClick={() => setTab(t)}>
            {t}
            {t === 'Tools' ? ` (${state?.tools.length ?? 0})` : ''}
            {t === 'Wire' ? ` (${store.feed.length})` : ''}
            {t === 'Wire' && store.faults > 0 ? <span class="badge">{store.faults}</span> : null}
          </button>
        ))}
      </nav>
      <main>
        {tab === 'Tools' ? (
          <ToolsView
            onRead={(server, uri) => {
              setOpened({ server, uri });
              setTab('Resources');
            }}
          />
        ) : null}
        {tab === 'Resources' ? <ResourcesView opened={opened} /> : null}
        {tab === 'Prompts' ? <PromptsView /> : null}
        {tab === 'Wire' ? <WireView /> : null}
        {tab === 'Logs' ? <LogsView /> : null}
        {tab === 'Roots' ? <RootsView /> : null}
        {tab === 'Doctor' ? <DoctorView /> : null}
        {tab === 'Servers' ? <ServersView /> : null}
      </main>
      {ask ? <AskDialog key={ask.id} ask={ask} /> : null}
    </div>
  );
}

const root = document.getElementById('app')!;
render(<App />, root);
void connect();
