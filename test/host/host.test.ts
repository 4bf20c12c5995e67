// The multi-server host against real processes: three servers, one of which crashes mid-call and one of
// which never starts; aggregation, routing, restart and shutdown with no process left behind.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseConfig } from '../../src/host/config.js';
import { type HostEvent, McpHost, RoutingError } from '../../src/host/host.js';
import { ConnectionClosedError } from '../../src/jsonrpc/errors.js';
import { McpwireError } from '../../src/jsonrpc/local-errors.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'mcpwire.js');
const crashy = path.join(root, 'test', 'fixtures', 'host', 'crashy-server.mjs');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves with the first event that matches. */
function nextEvent(
  events: HostEvent[],
  waiters: Array<() => void>,
  match: (e: HostEvent) => boolean,
): Promise<HostEvent> {
  return new Promise((resolve) => {
    const check = () => {
      const found = events.find(match);
      if (found) resolve(found);
      else waiters.push(check);
    };
    check();
  });
}

describe('McpHost', () => {
  let folder: string;
  let host: McpHost;
  const events: HostEvent[] = [];
  const waiters: Array<() => void> = [];

  before(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'mcpwire-host-'));
    writeFileSync(path.join(folder, 'note.txt'), 'a note');
    const config = parseConfig(
      {
        mcpServers: {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the configuration's own ${VAR} syntax, expanded by parseConfig.
          files: { command: process.execPath, args: [bin, 'serve', 'fs', '--root', '${FOLDER}'] },
          crashy: { command: process.execPath, args: [crashy] },
          ghost: { command: 'mcpwire-no-such-command-anywhere' },
        },
      },
      { ...process.env, FOLDER: folder },
      root,
    );
    host = new McpHost(config, {
      healthInterval: 0,
      restart: { initialDelay: 20, maxAttempts: 3 },
      onEvent: (event) => {
        events.push(event);
        for (const wake of waiters.splice(0)) wake();
      },
    });
    await host.start();
  });

  after(async () => {
    await host.shutdown();
    rmSync(folder, { recursive: true, force: true });
  });

  it('starts every server in parallel and reports the one that cannot start by name', () => {
    const states = Object.fromEntries(host.status().map((s) => [s.name, s]));
    assert.equal(states.files?.state, 'ready');
    assert.equal(states.crashy?.state, 'ready');
    assert.equal(states.ghost?.state, 'failed');
    assert.match(states.ghost?.error ?? '', /could not start "mcpwire-no-such-command-anywhere"/);
    assert.ok(events.some((e) => e.type === 'failed' && e.server === 'ghost'));
  });

  it('lists the tools of all servers under collision-free names and routes calls', async () => {
    const names = host.tools().map((t) => t.name);
    assert.ok(names.includes('files__list_directory'));
    assert.ok(names.includes('crashy__hello'));
    assert.equal(new Set(names).size, names.length);
    const listing = await host.callTool('files__list_directory', { path: '.' });
    assert.equal((listing.content[0] as { text: string }).text, '[FILE] note.txt');
    const hello = await host.callTool('crashy__hello');
    assert.match((hello.content[0] as { text: string }).text, /^hello from \d+$/);
  });

  it('refuses a name that belongs to no server', () => {
    assert.throws(() => host.callTool('nobody__hello'), RoutingError);
  });

  it('turns a crash mid-call into an error that says what happened, then restarts the server', async () => {
    const before = host.status().find((s) => s.name === 'crashy')!;
    const oldPid = before.pid!;
    const started = performance.now();
    const error = await host.callTool('crashy__crash').then(
      () => assert.fail('the call should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ConnectionClosedError, String(error));
    assert.match(error.message, /exited with code 7/);
    assert.match(error.message, /about to crash/);
    assert.ok(performance.now() - started < 5000);
    const crashed = await nextEvent(events, waiters, (e) => e.type === 'crashed' && e.server === 'crashy');
    const crashedAt = events.indexOf(crashed);
    await nextEvent(
      events,
      waiters,
      (e) => e.type === 'ready' && e.server === 'crashy' && events.indexOf(e) > crashedAt,
    );
    const after = host.status().find((s) => s.name === 'crashy')!;
    assert.equal(after.state, 'ready');
    assert.equal(after.restarts, 1);
    assert.notEqual(after.pid, oldPid);
    assert.equal(alive(oldPid), false);
    assert.ok(
      host.tools().some((t) => t.name === 'crashy__hello'),
      'tools are listed again after the restart',
    );
  });

  it('adds a server while the others run, refuses a name that is taken, and lists its tools', async () => {
    const added = parseConfig(
      { mcpServers: { later: { command: process.execPath, args: [crashy] } } },
      {},
      root,
    );
    await assert.rejects(() => host.add('files', added.servers.later!), RoutingError);
    const status = await host.add('later', added.servers.later!);
    assert.equal(status.state, 'ready');
    assert.equal(host.config('later'), added.servers.later);
    const hello = await host.callTool('later__hello');
    assert.match((hello.content[0] as { text: string }).text, /^hello from \d+$/);
    assert.ok(events.some((e) => e.type === 'ready' && e.server === 'later'));
  });

  it('replaces a server that failed to start when one is added under its name', async () => {
    assert.equal(host.status().find((s) => s.name === 'ghost')?.state, 'failed');
    const fixed = parseConfig(
      { mcpServers: { ghost: { command: process.execPath, args: [crashy] } } },
      {},
      root,
    );
    const status = await host.add('ghost', fixed.servers.ghost!);
    assert.equal(status.state, 'ready');
    assert.equal(host.status().filter((s) => s.name === 'ghost').length, 1);
    assert.ok(host.tools().some((t) => t.name === 'ghost__hello'));
  });

  it('shuts every server down, leaving no process behind', async () => {
    const pids = host
      .status()
      .map((s) => s.pid)
      .filter((p): p is number => p !== undefined);
    assert.equal(pids.length, 4);
    await host.shutdown();
    for (const pid of pids) assert.equal(alive(pid), false, `process ${pid} survived the host`);
  });
});

describe('McpHost under a signal', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`ends every server when the host process gets ${signal}`, async () => {
      const { spawn } = await import('node:child_process');
      const folder = mkdtempSync(path.join(tmpdir(), 'mcpwire-host-signal-'));
      const runner = spawn(
        process.execPath,
        [path.join(root, 'test', 'fixtures', 'host', 'host-runner.mjs'), bin, folder],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const pids = await new Promise<number[]>((resolve, reject) => {
        let text = '';
        runner.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('\n')) resolve(JSON.parse(text) as number[]);
        });
        runner.on('exit', (code) => reject(new Error(`the host exited early with ${code}`)));
      });
      assert.equal(pids.length, 2);
      for (const pid of pids) assert.equal(alive(pid), true);
      const exited = new Promise<number | null>((resolve) => runner.on('exit', (code) => resolve(code)));
      runner.kill(signal);
      assert.equal(await exited, signal === 'SIGINT' ? 130 : 143);
      for (const pid of pids) assert.equal(alive(pid), false, `server ${pid} outlived the host`);
      rmSync(folder, { recursive: true, force: true });
    });
  }
});

describe('McpHost: a server that answers with an unusable protocol version', () => {
  it('bug: reported the closed connection instead of the refused handshake; now names the version', async () => {
    const old = path.join(root, 'test', 'fixtures', 'host', 'old-version-server.mjs');
    const host = new McpHost(
      parseConfig({ mcpServers: { old: { command: process.execPath, args: [old] } } }, process.env, root),
      // The client would probe with server/discover first; this server speaks only the handshake era.
      { restart: false, healthInterval: 0 },
    );
    try {
      await host.start();
      const [status] = host.status();
      assert.equal(status?.state, 'failed');
      assert.match(status?.error ?? '', /protocol version "1999-01-01"/);
    } finally {
      await host.shutdown();
    }
  });

  it('start({ requireAll: true }) rejects, naming each server that could not start and why', async () => {
    const host = new McpHost(
      parseConfig(
        { mcpServers: { ghost: { command: 'mcpwire-no-such-command-anywhere' } } },
        process.env,
        root,
      ),
      { restart: false, healthInterval: 0 },
    );
    try {
      await assert.rejects(host.start({ requireAll: true }), (error: unknown) => {
        assert.ok(error instanceof McpwireError);
        assert.equal(error.code, 'SERVER_UNAVAILABLE');
        assert.match(
          error.message,
          /^server "ghost" could not start: could not start "mcpwire-no-such-command-anywhere"/,
        );
        return true;
      });
      // Without the option, the same failure is a status and an event, not a rejection.
      assert.equal((await host.start())[0]?.state, 'failed');
    } finally {
      await host.shutdown();
    }
  });
});
