// Roots the person sets, the doctor's report on a server, and the session exported as a trace log.

import { useState } from 'preact/hooks';
import { exportUrl, post } from './api';
import { useStore } from './store';

export function RootsView() {
  const store = useStore();
  const [text, setText] = useState(() => (store.state?.roots ?? []).map((r) => r.uri).join('\n'));
  const [saved, setSaved] = useState('');
  return (
    <div class="panel">
      <h2>Roots</h2>
      <p class="desc">
        One URI per line (file:///home/me/project). Servers that asked for roots are told they changed.
      </p>
      <textarea rows={6} value={text} data-testid="roots" onInput={(e) => setText(e.currentTarget.value)} />
      <div class="toolbar">
        <button
          type="button"
          class="primary"
          onClick={async () => {
            const roots = text
              .split('\n')
              .map((l) => l.trim())
              .filter(Boolean)
              .map((uri) => ({ uri, name: uri.split('/').filter(Boolean).pop() ?? uri }));
            await post('roots', { roots });
            setSaved(`${roots.length} root${roots.length === 1 ? '' : 's'} set`);
          }}
        >
          Set roots
        </button>
        <span class="muted">{saved}</span>
      </div>
    </div>
  );
}

interface CheckResult {
  id: string;
  title: string;
  status: 'pass' | 'fail' | 'warn' | 'skip';
  details: string[];
  hint?: string;
  rule: { source: string; text: string };
}

export function DoctorView() {
  const store = useStore();
  const servers = store.state?.servers ?? [];
  const [running, setRunning] = useState('');
  const [report, setReport] = useState<{ server: string; results: CheckResult[] } | undefined>();
  const [error, setError] = useState('');
  if (!store.state?.doctor) return <p class="muted">The doctor is not available here.</p>;
  return (
    <div class="panel">
      <h2>Doctor</h2>
      <p class="desc">
        Black-box checks against a fresh process (or session) of the server, as mcpwire doctor runs them.
      </p>
      <div class="toolbar">
        {servers.map((s) => (
          <button
            type="button"
            disabled={running !== ''}
            data-testid={`doctor-${s.name}`}
            onClick={async () => {
              setRunning(s.name);
              setError('');
              try {
                setReport(await post('doctor', { server: s.name }));
              } catch (e) {
                setError((e as Error).message);
              } finally {
                setRunning('');
              }
            }}
          >
            Check {s.name}
          </button>
        ))}
        {running ? <span class="muted">checking {running}…</span> : null}
      </div>
      {error ? <div class="bad">{error}</div> : null}
      {report ? (
        <div data-testid="doctor-report">
          <p>
            {report.server}: {report.results.filter((r) => r.status === 'pass').length} passed,{' '}
            {report.results.filter((r) => r.status === 'fail').length} failed,{' '}
            {report.results.filter((r) => r.status === 'warn').length} warnings
          </p>
          {report.results.map((r) => (
            <div class={`check ${r.status}`}>
              <b>{r.status.toUpperCase()}</b> {r.id} — {r.title}
              {r.details.map((d) => (
                <div class="muted">{d}</div>
              ))}
              {r.status === 'fail' || r.status === 'warn' ? (
                <div class="muted">
                  rule ({r.rule.source}): {r.rule.text}
                  {r.hint ? <div>fix: {r.hint}</div> : null}
                </div>
              ) : null}
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}

export function ExportLinks() {
  const store = useStore();
  return (
    <span class="export">
      {(store.state?.servers ?? []).map((s) => (
        <a href={exportUrl(s.name)} download={`${s.name}.trace.jsonl`} data-testid={`export-${s.name}`}>
          ⤓ {s.name}.trace.jsonl
        </a>
      ))}
    </span>
  );
}
