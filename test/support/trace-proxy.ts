// `mcpwire trace --http 0 --url UPSTREAM --format jsonl --log FILE`, started for a test: resolves with the
// proxy's URL once it listens; stop() ends it with SIGTERM and gives its exit code and every record.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import type { TraceRecord } from '../../src/inspect/trace-format.js';
import { BIN, REPO_ROOT } from './peers.js';

const workDir = mkdtempSync(path.join(tmpdir(), 'mcpwire-trace-http-'));
const live = new Set<ChildProcess>();
after(() => {
  for (const child of live) child.kill('SIGKILL');
  rmSync(workDir, { recursive: true, force: true });
});

export interface Trace {
  /** The proxy's URL: the upstream's path on 127.0.0.1 and the proxy's port. */
  url: string;
  /** The jsonl log it writes. */
  log: string;
  /** Ends the proxy (SIGTERM), and gives its exit code and everything it logged. */
  stop(): Promise<{ code: number | null; records: TraceRecord[] }>;
}

let traces = 0;
export async function startTrace(upstream: string): Promise<Trace> {
  const log = path.join(workDir, `trace-${++traces}.jsonl`);
  const child = spawn(
    process.execPath,
    [BIN, 'trace', '--http', '0', '--url', upstream, '--format', 'jsonl', '--log', log],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  live.add(child);
  const closed = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      seen += text;
      const found = /listening on (http:\/\/\S+),/.exec(seen)?.[1];
      if (found) resolve(found);
    });
    void closed.then((code) => reject(new Error(`trace exited with ${code} before listening:\n${seen}`)));
  });
  return {
    url,
    log,
    async stop() {
      child.kill('SIGTERM');
      const code = await closed;
      const text = readFileSync(log, 'utf8');
      return {
        code,
        records: text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as TraceRecord),
      };
    },
  };
}
