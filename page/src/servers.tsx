// The servers: each one's state, and a form to add one (a command, a URL, or a whole configuration). The
// inspector starts it as it started those of its command line; the token keeps other pages out.

import { useState } from 'preact/hooks';
import { post } from './api';
import { type AddKind, serversFrom } from './server-entry';
import { useStore } from './store';

interface Status {
  name: string;
  state: string;
  error?: string;
}

const PLACEHOLDER: Record<AddKind, string> = {
  command: 'npx -y @modelcontextprotocol/server-everything',
  url: 'http://127.0.0.1:3000/mcp',
  config: '{"mcpServers": {"files": {"command": "npx", "args": ["mcpwire", "serve", "fs"]}}}',
};

export function ServersView() {
  const store = useStore();
  const [kind, setKind] = useState<AddKind>('command');
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [headers, setHeaders] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>();
  const add = async () => {
    let table: Record<string, unknown>;
    try {
      table = serversFrom({ kind, name, text, headers });
    } catch (error) {
      setOutcome({ ok: false, text: (error as Error).message });
      return;
    }
    setBusy(true);
    setOutcome(undefined);
    try {
      const answer = await post<{ servers: Status[] }>('add', { mcpServers: table });
      const failed = answer.servers.filter((s) => s.state !== 'ready');
      setOutcome({
        ok: failed.length === 0,
        text: answer.servers.map((s) => `${s.name}: ${s.state}${s.error ? ` (${s.error})` : ''}`).join('; '),
      });
    } catch (error) {
      setOutcome({ ok: false, text: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="panel" data-testid="servers-panel">
      <h2>Servers</h2>
      <table class="statuses">
        <tbody>
          {(store.state?.servers ?? []).map((s) => (
            <tr data-server={s.name}>
              <td>{s.name}</td>
              <td class={s.state === 'ready' ? 'ok' : 'bad'}>{s.state}</td>
              <td class="muted">
                {s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}` : ''} {s.protocolVersion ?? ''}{' '}
                {s.transport ?? ''} {s.url ?? ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Add a server</h3>
      <div class="toolbar">
        {(['command', 'url', 'config'] as const).map((k) => (
          <label>
            <input type="radio" name="add-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />{' '}
            {k === 'command' ? 'a command (stdio)' : k === 'url' ? 'a URL' : 'a configuration'}
          </label>
        ))}
      </div>
      {kind === 'config' ? null : (
        <label class="field">
          <span class="label">name</span>
          <input data-testid="add-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
      )}
      {kind === 'config' ? (
        <textarea
          rows={6}
          data-testid="add-text"
          placeholder={PLACEHOLDER[kind]}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      ) : (
        <label class="field">
          <span class="label">{kind === 'command' ? 'command line' : 'URL'}</span>
          <input
            data-testid="add-text"
            placeholder={PLACEHOLDER[kind]}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </label>
      )}
      {kind === 'url' ? (
        <textarea
          rows={2}
          data-testid="add-headers"
          placeholder="Authorization: Bearer … (one header a line)"
          value={headers}
          onInput={(e) => setHeaders(e.currentTarget.value)}
        />
      ) : null}
      <div class="toolbar">
        <button type="button" class="primary" disabled={busy} onClick={add} data-testid="add-server">
          {busy ? 'Starting…' : 'Add and start'}
        </button>
        {outcome ? (
          <span class={outcome.ok ? 'ok' : 'bad'} data-testid="add-outcome" data-ok={String(outcome.ok)}>
            {outcome.text}
          </span>
        ) : null}
      </div>
      <p class="desc">
        A command runs on this machine as you; a remote server that needs OAuth uses the tokens of mcpwire
        login.
      </p>
    </div>
  );
}
