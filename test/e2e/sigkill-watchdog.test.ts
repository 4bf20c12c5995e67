// SIGKILL of a mcpwire process (a command, trace, a library user's McpHost) cannot be caught, so no signal
// handler or exit hook ends its servers. A server that ignored SIGTERM and the end of its stdin lived on,
// reparented, with its children. The watchdog each mcpwire process starts with its first server ends them.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'mcpwire.js');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'processes');
const STUBBORN_TREE = path.join(FIXTURES, 'stubborn-tree-server.mjs');
/** A failure limit, not a wait: the watchdog's grace is a second, so this is ample. */
const GONE_WITHIN_MS = 15_000;

/** Every process a test started or learnt of; all are killed at the end, whatever the outcome. */
const started = new Set<number>();
after(() => {
  for (const pid of started) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }
});

/** Starts node with `args`; `ownGroup` makes it the leader of a process group, as a shell's job is. */
function run(args: string[], ownGroup = false): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  if (child.pid !== undefined) started.add(child.pid);
  return child;
}

/**
 * Waits until the child's stderr has said both "child N" and "pid N" (and `extra`, when given), and
 * returns those pids. Each is remembered for the clean-up as soon as it is seen.
 */
function treePids(child: ChildProcess, extra?: RegExp): Promise<{ server: number; child: number }> {
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const server = Number(/\bpid (\d+)/.exec(stderr)?.[1]);
      const grandchild = Number(/\bchild (\d+)/.exec(stderr)?.[1]);
      if (server) started.add(server);
      if (grandchild) started.add(grandchild);
      if (server && grandchild && (!extra || extra.test(stderr))) resolve({ server, child: grandchild });
    });
    child.once('exit', (code) => reject(new Error(`exited early (${code}): ${stderr}`)));
  });
}

/** Whether the process has ended. A zombie has too: only its entry waits for a parent to reap it. */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw error;
  }
  try {
    // The state follows the command's closing parenthesis in /proc/PID/stat.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Polls until every pid is gone, failing at the deadline with the ones still running. */
async function waitGone(pids: number[]): Promise<void> {
  const deadline = Date.now() + GONE_WITHIN_MS;
  for (;;) {
    const alive = pids.filter((pid) => !isGone(pid));
    if (alive.length === 0) return;
    if (Date.now() > deadline)
      assert.fail(`still running ${GONE_WITHIN_MS} ms after SIGKILL: ${alive.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function sigkill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('SIGKILL of mcpwire ends the servers it started', { timeout: 120_000 }, () => {
  it('bug: mcpwire call killed by SIGKILL left a stubborn server and its child running; both end', async () => {
    const cli = run([BIN, 'call', 'wait', '--verbose', '--', process.execPath, STUBBORN_TREE]);
    const pids = await treePids(cli, /got tools\/call/);
    await sigkill(cli);
    await waitGone([pids.server, pids.child]);
  });

  it('bug: mcpwire trace killed by SIGKILL left a stubborn server and its child running; both end', async () => {
    const trace = run([BIN, 'trace', '--', process.execPath, STUBBORN_TREE]);
    const pids = await treePids(trace);
    await sigkill(trace);
    await waitGone([pids.server, pids.child]);
  });

  it('SIGKILL to the whole process group of mcpwire (a job killed at once) ends them too', async () => {
    // The watchdog is in a session of its own: a signal to mcpwire's group does not take it down too.
    const cli = run([BIN, 'call', 'wait', '--verbose', '--', process.execPath, STUBBORN_TREE], true);
    const pids = await treePids(cli, /got tools\/call/);
    const exited = new Promise((resolve) => cli.once('exit', resolve));
    process.kill(-cli.pid!, 'SIGKILL');
    await exited;
    await waitGone([pids.server, pids.child]);
  });

  it("bug: a library user's McpHost killed by SIGKILL left its servers running; they end", async () => {
    const user = run([path.join(FIXTURES, 'host-user.mjs')]);
    const ready = new Promise<void>((resolve) => {
      let stdout = '';
      user.stdout!.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        if (stdout.includes('ready\n')) resolve();
      });
    });
    const pids = await treePids(user);
    await ready;
    await sigkill(user);
    await waitGone([pids.server, pids.child]);
  });

  it('trace killed by SIGTERM still gives a server that ignores it SIGKILL, its child included', async () => {
    const trace = run([BIN, 'trace', '--', process.execPath, STUBBORN_TREE]);
    const pids = await treePids(trace);
    const exited = new Promise<number | null>((resolve) => trace.once('exit', resolve));
    trace.kill('SIGTERM');
    assert.equal(await exited, 137, 'trace ends with the status of its server, killed by SIGKILL');
    await waitGone([pids.server, pids.child]);
  });
});
