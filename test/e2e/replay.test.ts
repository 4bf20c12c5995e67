// `mcpwire replay LOG`: a session recorded by mcpwire trace (stdio, and --http in both eras) replays clean
// against the same server, and shows the difference, with exit 1, against a changed one. A log that is
// not jsonl is a usage error (exit 2); a server that cannot be reached is exit 3.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, REPO_ROOT } from '../support/peers.js';
import { type RemoteServer, startRemote } from '../support/remote-servers.js';
import { runCli } from '../support/run-cli.js';
import { startTrace } from '../support/trace-proxy.js';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'replay', 'server.mjs');
const workDir = mkdtempSync(path.join(tmpdir(), 'mcpwire-replay-'));
const live = new Set<ChildProcess>();
const remotes = new Set<RemoteServer>();
after(async () => {
  for (const child of live) child.kill('SIGKILL');
  for (const remote of remotes) await remote.stop();
  rmSync(workDir, { recursive: true, force: true });
});

/** The fixture over HTTP (`changed` or not), with its URL once it listens. */
async function fixtureOverHttp(...args: string[]): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [FIXTURE, ...args, '--http'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  live.add(child);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      seen += text;
      const found = /listening on (http:\/\/\S+)/.exec(seen)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`the fixture exited with ${code}: ${seen}`)));
  });
  return {
    url,
    stop: () => {
      child.kill('SIGKILL');
      live.delete(child);
    },
  };
}

const SAME = /^(\d+) answers compared: \1 the same, 0 different$/m;

describe('replay of a stdio session', () => {
  const log = path.join(workDir, 'stdio.jsonl');
  const server = [process.execPath, FIXTURE];

  it('records a session through trace', async () => {
    const run = await runCli([
      'call',
      'greet',
      'name=Ada',
      '--',
      process.execPath,
      BIN,
      'trace',
      '--format',
      'jsonl',
      '--log',
      log,
      '--',
      ...server,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Hello, Ada!/);
  });

  it('replays clean against the same server (its timestamps and durations change every run)', async () => {
    const run = await runCli(['replay', log, '--verbose', '--', ...server]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, SAME);
    assert.match(run.stdout, /✓ tools\/call \(id \d+\)/);
  });

  it('shows the difference against a changed server, and exits 1', async () => {
    const run = await runCli(['replay', log, '--', ...server, 'changed']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /✗ tools\/call \(id \d+\): the answer differs\n {4}result\.content\[0\]\.text: "Hello, Ada!" → "Hi, Ada\."/,
    );
    assert.match(run.stdout, /answers compared: \d+ the same, 1 different/);
    const json = await runCli(['replay', log, '--json', '--', ...server, 'changed']);
    const report = JSON.parse(json.stdout) as {
      different: { method: string; differences: { path: string }[] }[];
    };
    assert.deepEqual(
      report.different.map((d) => [d.method, d.differences.map((x) => x.path)]),
      [['tools/call', ['result.content[0].text']]],
    );
  });
});

describe('replay of an HTTP session recorded by trace --http', () => {
  it('2026-07-28 (mcpwire): clean against the same server, the difference against a changed one', async () => {
    const recorded = await fixtureOverHttp();
    const trace = await startTrace(recorded.url);
    const run = await runCli(['call', '--url', trace.url, 'greet', 'name=Ada']);
    await trace.stop();
    recorded.stop();
    assert.equal(run.code, 0, run.stderr);

    const same = await fixtureOverHttp();
    const clean = await runCli(['replay', trace.log, '--url', same.url]);
    same.stop();
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, SAME);

    const changed = await fixtureOverHttp('changed');
    const different = await runCli(['replay', trace.log, '--url', changed.url]);
    changed.stop();
    assert.equal(different.code, 1, different.stdout + different.stderr);
    assert.match(different.stdout, /result\.content\[0\]\.text: "Hello, Ada!" → "Hi, Ada\."/);
  });

  it('a session of the handshake era (the official SDK): clean against a fresh server', async () => {
    const recorded = await startRemote('sdk-streamable');
    remotes.add(recorded);
    const trace = await startTrace(recorded.url);
    const run = await runCli(['call', '--url', trace.url, 'add', 'a=1', 'b=2']);
    const { records } = await trace.stop();
    await recorded.stop();
    assert.equal(run.code, 0, run.stderr);
    assert.ok(
      records.some((r) => r.type === 'message' && r.session !== undefined),
      'the session was recorded',
    );

    const fresh = await startRemote('sdk-streamable');
    remotes.add(fresh);
    const replay = await runCli(['replay', trace.log, '--verbose', '--url', fresh.url]);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    assert.match(replay.stdout, /✓ initialize/);
    assert.match(replay.stdout, /✓ tools\/call/);
  });
});

describe('replay refuses what it cannot use', () => {
  it('a log that is not jsonl is a usage error that says how to record one', async () => {
    const pretty = path.join(workDir, 'pretty.trace');
    writeFileSync(pretty, '21:13:47.082 → {"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    const run = await runCli(['replay', pretty, '--', process.execPath, FIXTURE]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /line 1 is not JSON: .*--format jsonl/);
  });

  it('a server that cannot be reached is one line and exit 3', async () => {
    const log = path.join(workDir, 'one.jsonl');
    writeFileSync(
      log,
      `${JSON.stringify({ type: 'message', time: 'x', from: 'client', payload: { jsonrpc: '2.0', id: 1, method: 'ping' } })}\n${JSON.stringify({ type: 'message', time: 'x', from: 'server', payload: { jsonrpc: '2.0', id: 1, result: {} } })}\n`,
    );
    const run = await runCli(['replay', log, '--url', 'http://127.0.0.1:1/mcp']);
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stderr, /^mcpwire: cannot reach http:\/\/127\.0\.0\.1:1\/mcp/);
  });
});
