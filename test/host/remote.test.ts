// The host with remote servers beside a stdio one, all real processes on 127.0.0.1: mcpwire's own HTTP
// server, the official SDK v1 over Streamable HTTP and over the older HTTP+SSE transport (named, and found
// by falling back from a plain URL), and server-everything in both HTTP modes. Tools of every server are
// listed, routed and called; a remote server killed mid-session is connected again once it is back.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseConfig } from '../../src/host/config.js';
import { type HostEvent, McpHost } from '../../src/host/host.js';
import { BIN } from '../support/peers.js';
import { type RemoteServer, startRemote } from '../support/remote-servers.js';

function text(result: { content?: Array<{ type: string; text?: string }> }): string {
  return (result.content ?? []).map((c) => c.text ?? '').join('');
}

describe('McpHost with remote servers', () => {
  const remotes: RemoteServer[] = [];
  let host: McpHost;
  const events: HostEvent[] = [];
  let notify: (() => void) | undefined;

  before(async () => {
    const [own, sdk, sdkSse, everything, everythingSse] = await Promise.all([
      startRemote('mcpwire'),
      startRemote('sdk-streamable'),
      startRemote('sdk-sse'),
      startRemote('everything-streamable'),
      startRemote('everything-sse'),
    ]);
    remotes.push(own!, sdk!, sdkSse!, everything!, everythingSse!);
    const config = parseConfig(
      {
        mcpServers: {
          local: { command: process.execPath, args: [BIN, 'serve', 'everything'] },
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the configuration's own ${VAR} syntax.
          own: { url: own!.url, headers: { 'X-Test': '${TEST_HEADER}' } },
          sdk: { type: 'http', url: sdk!.url },
          sdkSse: { type: 'sse', url: sdkSse!.url },
          // No type: Streamable HTTP is tried first, and the server's 404 to the POST means HTTP+SSE.
          sdkFallback: { url: sdkSse!.url },
          everything: { type: 'streamable-http', url: everything!.url },
          everythingSse: { type: 'sse', url: everythingSse!.url },
        },
      },
      { TEST_HEADER: 'yes' },
      process.cwd(),
    );
    host = new McpHost(config, {
      healthInterval: 0,
      restart: { initialDelay: 50, maxDelay: 200, maxAttempts: 100 },
      onEvent: (event) => {
        events.push(event);
        notify?.();
      },
    });
  });

  after(async () => {
    await host?.shutdown();
    await Promise.all(remotes.map((r) => r.stop()));
  });

  it('starts every server, each on the transport it speaks', async () => {
    const statuses = await host.start({ requireAll: true });
    const byName = Object.fromEntries(statuses.map((s) => [s.name, s]));
    for (const s of statuses) assert.equal(s.state, 'ready', `${s.name}: ${s.error}`);
    assert.equal(byName.local?.transport, 'stdio');
    assert.equal(byName.own?.transport, 'streamable-http');
    assert.equal(byName.sdk?.transport, 'streamable-http');
    assert.equal(byName.sdkSse?.transport, 'sse');
    assert.equal(byName.sdkFallback?.transport, 'sse');
    assert.equal(byName.everything?.transport, 'streamable-http');
    assert.equal(byName.everythingSse?.transport, 'sse');
    assert.equal(byName.own?.url, remotes[0]!.url);
    assert.equal(byName.local?.url, undefined);
  });

  it('lists the tools of every server and routes each call to its own', async () => {
    const names = new Set(host.tools().map((t) => t.name));
    for (const name of ['local__echo', 'own__echo', 'sdk__add', 'sdkSse__add', 'sdkFallback__add']) {
      assert.ok(names.has(name), `${name} in ${[...names].join(', ')}`);
    }
    assert.ok(names.has('everything__echo') && names.has('everythingSse__echo'));
    assert.equal(text(await host.callTool('local__echo', { message: 'from stdio' })), 'Echo: from stdio');
    assert.equal(text(await host.callTool('own__echo', { message: 'over http' })), 'Echo: over http');
    assert.equal(text(await host.callTool('sdk__add', { a: 2, b: 3 })), '5');
    assert.equal(text(await host.callTool('sdkSse__add', { a: 4, b: 5 })), '9');
    assert.equal(text(await host.callTool('sdkFallback__add', { a: 1, b: 1 })), '2');
    assert.match(text(await host.callTool('everything__echo', { message: 'hi' })), /hi/);
    assert.match(text(await host.callTool('everythingSse__echo', { message: 'there' })), /there/);
  });

  it('connects a remote server again after it was killed and came back', async () => {
    const own = remotes[0]!;
    const crashed = new Promise<void>((resolve) => {
      notify = () => {
        if (events.some((e) => e.type === 'crashed' && e.server === 'own')) resolve();
      };
    });
    await own.stop();
    // The server is gone: the next call fails, and the host notices it as it notices a crashed process.
    await assert.rejects(host.callTool('own__echo', { message: 'lost' }));
    await crashed;
    const ready = new Promise<void>((resolve) => {
      const seen = events.length;
      notify = () => {
        if (events.slice(seen).some((e) => e.type === 'ready' && e.server === 'own')) resolve();
      };
    });
    remotes[0] = await startRemote('mcpwire', own.port);
    await ready;
    assert.equal(text(await host.callTool('own__echo', { message: 'back' })), 'Echo: back');
    const status = host.status().find((s) => s.name === 'own');
    assert.equal(status?.state, 'ready');
    assert.ok((status?.restarts ?? 0) >= 1);
  });
});
