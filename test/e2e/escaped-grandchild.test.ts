// A server that leaves a grandchild behind in a session of its own (setsid), holding the server's stdout
// and stderr open. The grandchild is out of the process group that mcpwire signals, and the pipes did not
// close when the server exited: the command, and trace, waited for them for as long as it ran.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'mcpwire.js');
const SERVER = path.join(ROOT, 'test', 'fixtures', 'processes', 'escaping-server.mjs');

const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-escaped-'));
/** Every process a test started, and the files the servers write their grandchild's pid to. */
const started = new Set<number>();
const pidFiles: string[] = [];
// Whatever the outcome, every process is killed at the end: a grandchild, mcpwire itself if it hung.
after(() => {
  for (const file of pidFiles) if (existsSync(file)) started.add(Number(readFileSync(file, 'utf8')));
  for (const pid of started) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The command that runs the escaping server, exiting with `exitCode` once its stdin ends. */
function server(exitCode = 0): string[] {
  const pidFile = path.join(dir, `grandchild-${pidFiles.length}.pid`);
  pidFiles.push(pidFile);
  return [process.execPath, SERVER, pidFile, String(exitCode)];
}

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs mcpwire with `input` on its stdin (then ended), to its close. */
function mcpwire(args: string[], input = ''): { child: ChildProcess; ended: Promise<Ended> } {
  // The timeout is a failure limit, not a wait: a command that hangs is killed and the test fails.
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  if (child.pid !== undefined) started.add(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  child.stdin.end(input);
  const ended = new Promise<Ended>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, ended };
}

describe('a server whose grandchild escaped with its pipes', { timeout: 120_000 }, () => {
  it('bug: mcpwire tools never exited after the server did; it exits 0 with the list', async () => {
    const { ended } = mcpwire(['tools', '--', ...server()]);
    const run = await ended;
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /noop/);
  });

  it('bug: mcpwire call never exited after the server did; it exits 0 with the result', async () => {
    const { ended } = mcpwire(['call', 'noop', '--', ...server()]);
    const run = await ended;
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /done/);
  });

  it('bug: trace never exited after its client closed stdin; it exits with the server own code', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const { ended } = mcpwire(
      ['trace', '--format', 'jsonl', '--', ...server(7)],
      `${JSON.stringify(initialize)}\n`,
    );
    const run = await ended;
    assert.equal(run.code, 7, run.stderr);
    assert.match(run.stdout, /"serverInfo":\{"name":"escaping"/);
    assert.match(run.stderr, /"type":"exit".*"code":7/);
  });
});
