// ChildProcessTransport and Connection against real processes (the fixtures in test/fixtures/transport):
// a well-behaved echo server built on mcpwire's own StdioServerTransport, a server that crashes
// mid-request, servers that outlive the end of stdin or SIGTERM, one that prints garbage on stdout, one that
// leaves a grandchild behind, and a command that does not exist. The echo fixture imports dist/index.js,
// so `npm run build` must have run (npm test does it first). The 10 MiB and 100 MiB round trips are in
// child-process-large.test.ts.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Connection, type ConnectionProblem } from '../../src/jsonrpc/connection.js';
import { ErrorCode } from '../../src/jsonrpc/error-codes.js';
import { type CloseReason, ConnectionClosedError, JsonRpcError } from '../../src/jsonrpc/errors.js';
import {
  ChildProcessTransport,
  type ChildProcessTransportOptions,
} from '../../src/transport/child-process.js';
import { cites } from '../support/requirements.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const fixture = (name: string) => path.join(ROOT, 'test', 'fixtures', 'transport', name);

interface Server {
  transport: ChildProcessTransport;
  connection: Connection;
  problems: ConnectionProblem[];
  /** Resolves with the reason once the connection has closed. */
  closed: Promise<CloseReason>;
  /** Resolves once the server's stderr, as received so far, contains `text`. */
  stderrContains(text: string): Promise<void>;
}

const started: Connection[] = [];

/** Starts `node FIXTURE ...args` behind a ChildProcessTransport and a Connection. */
function start(
  name: string,
  args: string[] = [],
  options: Partial<ChildProcessTransportOptions> = {},
): Server {
  let stderr = '';
  let stderrWaiters: Array<() => void> = [];
  const transport = new ChildProcessTransport({
    command: process.execPath,
    args: [fixture(name), ...args],
    stderr: (text) => {
      stderr += text;
      const waiters = stderrWaiters;
      stderrWaiters = [];
      for (const check of waiters) check();
    },
    ...options,
  });
  const problems: ConnectionProblem[] = [];
  const connection = new Connection(transport, { timeout: 60_000, onProblem: (p) => problems.push(p) });
  const closed = new Promise<CloseReason>((resolve) => connection.onClose(resolve));
  connection.start();
  started.push(connection);
  return {
    transport,
    connection,
    problems,
    closed,
    stderrContains: (text) =>
      new Promise((resolve) => {
        const check = () => {
          if (stderr.includes(text)) resolve();
          else stderrWaiters.push(check);
        };
        check();
      }),
  };
}

/** Resolves with the params of the first notification `method` the server sends. */
function notification<T>(connection: Connection, method: string): Promise<T> {
  return new Promise((resolve) => connection.onNotification(method, (params) => resolve(params as T)));
}

/**
 * Whether a process is alive. A killed process whose parent is gone is a zombie until init reaps it, and
 * the init of some containers never does; a zombie counts as dead.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Waits until a process that is not our child is gone. Nothing signals the death of a grandchild, so this
 * polls, with a deadline.
 */
async function waitUntilGone(pid: number, deadlineMs = 5000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) assert.fail(`process ${pid} is still alive ${deadlineMs} ms after close()`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function assertGone(pid: number): void {
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
}

// The tests are independent (a process each) and mostly wait, so they run concurrently.
describe('real processes', { concurrency: true }, () => {
  before(() => {
    assert.ok(
      existsSync(path.join(ROOT, 'dist', 'index.js')),
      'dist/index.js is missing: run `npm run build` first (the echo fixture imports the build)',
    );
  });

  after(async () => {
    // Whatever a failed test left running is ended, so that no process outlives the suite.
    await Promise.all(started.splice(0).map((connection) => connection.close()));
  });

  describe('ChildProcessTransport: a well-behaved server', { concurrency: true }, () => {
    it('sends requests and gets their answers, errors included', async () => {
      const { connection, problems } = start('echo-server.mjs');
      const params = { text: 'é € 😀 日本語', nested: { list: [1, { id: 'inner' }], nothing: null } };
      assert.deepEqual(await connection.request('echo', params), params);
      await assert.rejects(connection.request('no/such/method', {}), (error: unknown) => {
        assert.ok(error instanceof JsonRpcError);
        assert.equal(error.code, ErrorCode.MethodNotFound);
        return true;
      });
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, n) => connection.request('echo', { n })),
      );
      assert.deepEqual(
        answers,
        Array.from({ length: 50 }, (_, n) => ({ n })),
      );
      assert.deepEqual(problems, []);
    });

    it(cites('stdio.client-shutdown')`closes by ending stdin: the server exits with code 0`, async () => {
      const { connection, transport, closed } = start('echo-server.mjs');
      assert.deepEqual(await connection.request('echo', {}), {});
      const pid = transport.pid!;
      await connection.close();
      const reason = await closed;
      assert.equal(reason.message, 'server exited with code 0 after shutdown');
      assert.equal(reason.exitCode, 0);
      assertGone(pid);
    });
  });

  describe('ChildProcessTransport: close() called twice', { concurrency: true }, () => {
    it('a second close() ends when the first does, whatever was sent after stdin ended (regression: the second waited for a flush that could not end, on a timer that kept nothing alive, and a proxy shutting down hung)', async () => {
      const { connection, transport } = start('echo-server.mjs', [], { shutdownGrace: 30_000 });
      assert.deepEqual(await connection.request('echo', {}), {});
      const first = transport.close();
      await new Promise((resolve) => setImmediate(resolve));
      // A large message after stdin ended: the pipe refuses it and will never drain.
      transport.send({ jsonrpc: '2.0', method: 'late', params: { pad: 'x'.repeat(1 << 20) } });
      let secondDone = false;
      const second = transport.close().then(() => {
        secondDone = true;
      });
      await first;
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(secondDone, true, 'the second close() ended with the first');
      await second;
    });
  });

  describe('ChildProcessTransport: a server that crashes mid-request', { concurrency: true }, () => {
    it('rejects the pending request with ConnectionClosedError naming the exit code and the stderr tail', async () => {
      const { connection, closed } = start('crash-server.mjs');
      await assert.rejects(connection.request('work', { n: 1 }), (error: unknown) => {
        assert.ok(error instanceof ConnectionClosedError, String(error));
        assert.equal(error.method, 'work');
        assert.match(error.message, /server exited with code 3/);
        assert.match(error.message, /boom/);
        assert.equal(error.reason.exitCode, 3);
        assert.equal(error.reason.stderrTail, 'starting to handle the request\nboom');
        return true;
      });
      const reason = await closed;
      assert.equal(reason.message, 'server exited with code 3');
      // Later requests fail at once with the same reason.
      await assert.rejects(connection.request('work'), /server exited with code 3/);
    });
  });

  describe('ChildProcessTransport: servers that do not exit when asked', { concurrency: true }, () => {
    it(cites('stdio.client-shutdown')`sends SIGTERM to a server that ignores the end of stdin`, async () => {
      const { connection, transport, closed } = start('lingering-server.mjs', [], { shutdownGrace: 200 });
      await notification(connection, 'ready');
      const pid = transport.pid!;
      await connection.close();
      const reason = await closed;
      assert.equal(reason.message, 'server was killed by SIGTERM after shutdown');
      assert.equal(reason.signal, 'SIGTERM');
      assertGone(pid);
    });

    it(cites(
      'stdio.client-shutdown',
    )`escalates to SIGKILL for a server that traps SIGTERM and never exits`, async () => {
      const server = start('lingering-server.mjs', ['trap-sigterm'], { shutdownGrace: 200 });
      await notification(server.connection, 'ready');
      const pid = server.transport.pid!;
      const startedAt = Date.now();
      await server.connection.close();
      const reason = await server.closed;
      assert.equal(reason.message, 'server was killed by SIGKILL after shutdown');
      assert.equal(reason.signal, 'SIGKILL');
      // Two grace periods passed: after the end of stdin and after SIGTERM.
      assert.ok(Date.now() - startedAt >= 400, `closed after ${Date.now() - startedAt} ms`);
      assertGone(pid);
      // It did get (and ignore) the SIGTERM.
      await server.stderrContains('SIGTERM ignored');
    });
  });

  describe('ChildProcessTransport: a server that prints garbage on stdout', { concurrency: true }, () => {
    it('still delivers the valid responses and reports each garbage line as a parse error', async () => {
      const { connection, problems } = start('garbage-server.mjs');
      const answers = await Promise.all([1, 2, 3].map((n) => connection.request('echo', { n })));
      assert.deepEqual(answers, [{ n: 1 }, { n: 2 }, { n: 3 }]);
      assert.deepEqual(
        problems.map((p) => p.kind),
        ['parse-error', 'parse-error', 'parse-error'],
      );
      assert.deepEqual(
        problems.map((p) => p.detail),
        [1, 2, 3].map((id) => `garbage before the answer to ${id}`),
      );
      // The connection goes on working after the garbage.
      assert.deepEqual(await connection.request('echo', { n: 4 }), { n: 4 });
    });
  });

  describe('ChildProcessTransport: a command that does not exist', { concurrency: true }, () => {
    it('closes with a reason that says it could not be started, and fails requests', async () => {
      const command = path.join(ROOT, 'test', 'fixtures', 'transport', 'no-such-server');
      const { connection, closed } = start('unused', [], { command, args: [] });
      await assert.rejects(connection.request('ping'), (error: unknown) => {
        assert.ok(error instanceof ConnectionClosedError, String(error));
        assert.match(error.message, /could not start/);
        return true;
      });
      const reason = await closed;
      assert.equal(
        reason.message,
        `could not start "${command}": no such command (check the spelling, or give the full path)`,
      );
      assert.equal((reason.cause as NodeJS.ErrnoException).code, 'ENOENT');
    });
  });

  describe('ChildProcessTransport: process tree', { concurrency: true }, () => {
    it('ends the grandchild of a server that exits when stdin ends, leaving it behind', async () => {
      // The default grace: the server exits by itself well within it, so no signal from close() is
      // involved; the grandchild must be ended because the server's exit ends its whole tree.
      const { connection, closed } = start('tree-server.mjs');
      const pids = await notification<{ child: number; grandchild: number }>(connection, 'pids');
      assert.ok(isAlive(pids.child) && isAlive(pids.grandchild), 'both processes run before close()');
      await connection.close();
      const reason = await closed;
      assert.equal(reason.message, 'server exited with code 0 after shutdown');
      assertGone(pids.child);
      await waitUntilGone(pids.grandchild);
    });

    it('ends a server that ignores the end of stdin together with its grandchild', async () => {
      const { connection, closed } = start('tree-server.mjs', ['stay'], { shutdownGrace: 200 });
      const pids = await notification<{ child: number; grandchild: number }>(connection, 'pids');
      assert.ok(isAlive(pids.child) && isAlive(pids.grandchild), 'both processes run before close()');
      await connection.close();
      const reason = await closed;
      assert.equal(reason.signal, 'SIGTERM');
      assertGone(pids.child);
      await waitUntilGone(pids.grandchild);
    });
  });

  describe('StdioServerTransport in a real process', { concurrency: true }, () => {
    it(cites(
      'stdio.exit-on-stdin-close',
    )`answers a slow request in flight after stdin ends, then exits with code 0`, async () => {
      const child = spawn(process.execPath, [fixture('echo-server.mjs')], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let stdoutWaiter: (() => void) | undefined;
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        stdoutWaiter?.();
      });
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      const line = (message: object) => `${JSON.stringify(message)}\n`;
      child.stdin.write(line({ jsonrpc: '2.0', id: 1, method: 'echo', params: { hello: 'world' } }));
      child.stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'slow', params: { ms: 300 } }));
      // Once the echo is answered the server is up and the slow request is in flight: end stdin now.
      await new Promise<void>((resolve) => {
        stdoutWaiter = () => {
          if (stdout.includes('\n')) resolve();
        };
        stdoutWaiter();
      });
      assert.doesNotMatch(stdout, /"id":2/);
      child.stdin.end();
      assert.equal(await exited, 0, `stderr: ${stderr}`);
      assert.deepEqual(
        stdout
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l)),
        [
          { jsonrpc: '2.0', id: 1, result: { hello: 'world' } },
          { jsonrpc: '2.0', id: 2, result: { slept: 300 } },
        ],
      );
    });

    it('delivers a slow answer when the client closes while the request is in flight', async () => {
      const { connection, closed } = start('echo-server.mjs');
      assert.deepEqual(await connection.request('echo', { up: true }), { up: true });
      const slow = connection.request('slow', { ms: 300 });
      await connection.close();
      assert.deepEqual(await slow, { slept: 300 });
      const reason = await closed;
      assert.equal(reason.exitCode, 0);
      assert.equal(reason.message, 'server exited with code 0 after shutdown');
    });

    it(cites(
      'stdio.stdout-protocol-only',
    )`sends console.log and process.stdout.write from a handler to stderr, not into the protocol`, async () => {
      const server = start('echo-server.mjs');
      assert.deepEqual(await server.connection.request('noise'), { ok: true });
      assert.deepEqual(await server.connection.request('echo', { after: 'noise' }), { after: 'noise' });
      await server.stderrContains('noise from console.log\n');
      await server.stderrContains('noise from process.stdout.write\n');
      assert.deepEqual(server.problems, []);
    });
  });
});
