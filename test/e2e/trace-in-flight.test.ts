// trace and a server that finishes its work after its input ended: answering the requests in flight
// before exiting is what a stdio server should do, and was flagged as no-exit (doctor's stdin-end check
// calls it correct). The grace period now runs from when the server has nothing left to answer.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'mcpwire.js');
const ECHO = path.join(ROOT, 'test', 'fixtures', 'transport', 'echo-server.mjs');

describe('trace: a server finishing its in-flight work after stdin ends', { timeout: 20_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-trace-inflight-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('bug: it was flagged no-exit while it answered a call longer than the grace period; it is not', async () => {
    const log = path.join(dir, 'trace.jsonl');
    const child = spawn(
      process.execPath,
      [BIN, 'trace', '--format', 'jsonl', '--log', log, '--', process.execPath, ECHO],
      {
        stdio: ['pipe', 'pipe', 'ignore'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    // A call that takes longer than trace's one-second grace, then the end of input at once.
    child.stdin.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slow', params: { ms: 1500 } })}\n`);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(out), { jsonrpc: '2.0', id: 1, result: { slept: 1500 } });
    const records = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; kind?: string });
    const problems = records.filter((r) => r.type === 'problem').map((r) => r.kind);
    assert.deepEqual(problems, [], 'no fault: the server answered, then exited');
  });
  it('bug: a subscriptions/listen the client cancelled was flagged as never answered; it is not', async () => {
    const log = path.join(dir, 'listen.jsonl');
    const child = spawn(
      process.execPath,
      [BIN, 'trace', '--format', 'jsonl', '--log', log, '--', process.execPath, BIN, 'serve', 'everything'],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
    };
    const listen = {
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: meta },
    };
    child.stdin.write(`${JSON.stringify(listen)}\n`);
    // Once the server has taken the stream, the client gives it up (as a shell does when it ends).
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        out += text;
        if (out.includes('notifications/subscriptions/acknowledged')) resolve();
      });
      child.once('close', (code) => reject(new Error(`trace ended (${code}) before the stream was taken`)));
    });
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    child.stdin.end(`${JSON.stringify(cancel)}\n`);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0);
    const records = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; kind?: string; message?: string });
    const problems = records.filter((r) => r.type === 'problem').map((r) => `${r.kind}: ${r.message}`);
    assert.deepEqual(problems, [], 'a request the client cancelled is no fault');
  });
});
