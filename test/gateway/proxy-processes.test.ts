// No process outlives `mcpwire proxy --http`: the server process of a session ends with its session
// (DELETE), and every server process (the shared one and each session's, with the children they started)
// ends when the proxy gets SIGTERM, or is killed by SIGKILL (the watchdog). The server used ignores SIGTERM
// and the end of its stdin, and has a child of its own that does too.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import { BIN, REPO_ROOT } from '../support/peers.js';

const STUBBORN_TREE = path.join(REPO_ROOT, 'test', 'fixtures', 'processes', 'stubborn-tree-server.mjs');
/** A failure limit, not a wait: shutdown takes a few seconds of grace at most. */
const GONE_WITHIN_MS = 20_000;

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

/** The proxy, with what its stderr says: its URL, and the pids of every server tree it started. */
function startProxy(args: string[] = ['proxy', '--http', '0', '--', process.execPath, STUBBORN_TREE]): {
  proxy: ChildProcess;
  pids: number[];
  url: Promise<string>;
  trees: (n: number) => Promise<number[]>;
} {
  const proxy = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (proxy.pid !== undefined) started.add(proxy.pid);
  const pids: number[] = [];
  let stderr = '';
  const waiters: Array<() => void> = [];
  proxy.stderr!.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
    pids.length = 0;
    for (const match of stderr.matchAll(/\b(?:pid|child) (\d+)/g)) {
      pids.push(Number(match[1]));
      started.add(Number(match[1]));
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const until = <T>(check: () => T | undefined): Promise<T> =>
    new Promise((resolve, reject) => {
      const attempt = () => {
        const found = check();
        if (found !== undefined) resolve(found);
        else waiters.push(attempt);
      };
      proxy.once('exit', (code) => reject(new Error(`the proxy exited (${code}): ${stderr}`)));
      attempt();
    });
  return {
    proxy,
    pids,
    url: until(() => /(http:\/\/\S+\/mcp)/.exec(stderr)?.[1]),
    // Each tree says "child N" and "pid N": n trees, 2n pids.
    trees: (n) => until(() => (pids.length >= 2 * n ? [...pids] : undefined)),
  };
}

function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

async function waitGone(pids: number[]): Promise<void> {
  const deadline = Date.now() + GONE_WITHIN_MS;
  for (;;) {
    const alive = pids.filter((pid) => !isGone(pid));
    if (alive.length === 0) return;
    if (Date.now() > deadline) assert.fail(`still running after ${GONE_WITHIN_MS} ms: ${alive.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function session(url: string): Promise<McpClient> {
  const client = new McpClient({ name: 'processes', version: '1.0.0', era: 'handshake', timeout: 30_000 });
  await client.connect(new HttpClientTransport(url), { timeout: 30_000 });
  return client;
}

describe('proxy --http: the server processes end with their session and with the proxy', {
  timeout: 120_000,
}, () => {
  it("a session's process ends with the session; SIGTERM of the proxy ends every process", async () => {
    const { proxy, url, trees } = startProxy();
    const endpoint = await url;
    const shared = await trees(1);
    const first = await session(endpoint);
    const withFirst = await trees(2);
    const firstTree = withFirst.filter((pid) => !shared.includes(pid));
    assert.equal(firstTree.length, 2, 'the session got a server of its own');
    await first.close();
    await waitGone(firstTree);
    const second = await session(endpoint);
    const all = await trees(3);
    const exited = new Promise((resolve) => proxy.once('exit', resolve));
    proxy.kill('SIGTERM');
    await exited;
    await waitGone(all);
    await second.close().catch(() => {});
  });

  it('SIGKILL of the proxy ends every process (the watchdog)', async () => {
    const { proxy, url, trees } = startProxy();
    const client = await session(await url);
    const all = await trees(2);
    const exited = new Promise((resolve) => proxy.once('exit', resolve));
    proxy.kill('SIGKILL');
    await exited;
    await waitGone(all);
    await client.close().catch(() => {});
  });
});

describe('gateway: its servers end with it, whatever signal ends it', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-gateway-processes-'));
  const config = path.join(dir, 'servers.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        one: { command: process.execPath, args: [STUBBORN_TREE] },
        two: { command: process.execPath, args: [STUBBORN_TREE] },
      },
    }),
  );
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGKILL'] as const) {
    it(`${signal} of the gateway ends every server and the children they started`, async () => {
      const { proxy: gateway, url, trees } = startProxy(['gateway', config, '--http', '0', '--verbose']);
      await url;
      const all = await trees(2);
      const exited = new Promise((resolve) => gateway.once('exit', resolve));
      gateway.kill(signal);
      await exited;
      await waitGone(all);
    });
  }
});
