// Request timeouts on a clock the test moves: 60 s by default, overridable per client and per call; a
// call that reports progress has its timeout restarted (on by default) up to a maximum total time (10 min by
// default); a call that times out is cancelled at the server.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { McpClient, McpClientOptions } from '../../src/client/client.js';
import { RequestTimeoutError } from '../../src/jsonrpc/errors.js';
import { FakeClock, settle } from '../support/fake-clock.js';
import { connectToFake, type FakeServer, type Message } from '../support/fake-mcp-server.js';

/** Watches a promise without awaiting it. */
function watch<T>(promise: Promise<T>): {
  state: () => string;
  error: () => unknown;
  done: Promise<unknown>;
} {
  let state = 'pending';
  let error: unknown;
  const done = promise.then(
    () => {
      state = 'resolved';
    },
    (e: unknown) => {
      state = 'rejected';
      error = e;
    },
  );
  return { state: () => state, error: () => error, done };
}

describe('McpClient timeouts', () => {
  let clock: FakeClock;
  let client: McpClient;
  let server: FakeServer;

  /** Connects on the fake clock: every timer of the client, the handshake's included, is on it. */
  async function connect(options: Partial<McpClientOptions> = {}): Promise<void> {
    clock.install();
    ({ client, server } = await connectToFake(options));
  }

  beforeEach(() => {
    clock = new FakeClock();
  });

  afterEach(async () => {
    clock.uninstall();
    await client?.close();
  });

  async function assertTimedOut(
    call: ReturnType<typeof watch>,
    request: Message,
    timeoutMs: number,
    kind: 'idle' | 'total',
  ): Promise<void> {
    assert.equal(call.state(), 'rejected');
    const error = call.error();
    assert.ok(error instanceof RequestTimeoutError, String(error));
    assert.equal(error.timeoutMs, timeoutMs);
    assert.equal(error.kind, kind);
    assert.equal(error.method, 'tools/call');
    // The server is told to stop working on it.
    const cancelled = await server.notification('notifications/cancelled');
    assert.equal(cancelled.params?.requestId, request.id);
    assert.match(String(cancelled.params?.reason), /tools\/call/);
  }

  it('gives up on a call after 60 s by default', async () => {
    await connect();
    const call = watch(client.callTool('slow'));
    const request = await server.request('tools/call');
    await clock.advance(59_999);
    assert.equal(call.state(), 'pending');
    await clock.advance(1);
    await assertTimedOut(call, request, 60_000, 'idle');
  });

  it('takes the timeout of the client options', async () => {
    await connect({ timeout: 5000 });
    const call = watch(client.callTool('slow'));
    const request = await server.request('tools/call');
    await clock.advance(4999);
    assert.equal(call.state(), 'pending');
    await clock.advance(1);
    await assertTimedOut(call, request, 5000, 'idle');
  });

  it('takes a per-call timeout over the client one, for that call only', async () => {
    await connect({ timeout: 5000 });
    const short = watch(client.callTool('slow', {}, { timeout: 100 }));
    const other = watch(client.callTool('slow'));
    const request = await server.request('tools/call');
    await clock.advance(100);
    await assertTimedOut(short, request, 100, 'idle');
    assert.equal(other.state(), 'pending');
    await clock.advance(4900);
    assert.equal(other.state(), 'rejected');
  });

  it('restarts the timeout on each progress, by default', async () => {
    await connect({ timeout: 1000 });
    const updates: number[] = [];
    const call = watch(client.callTool('long', {}, { onProgress: (p) => updates.push(p.progress) }));
    const request = await server.request('tools/call');
    const progressToken = (request.params!._meta as { progressToken: unknown }).progressToken;
    for (let step = 1; step <= 3; step++) {
      await clock.advance(900);
      server.notify('notifications/progress', { progressToken, progress: step });
      await settle();
      assert.equal(call.state(), 'pending', `alive at ${clock.now} ms thanks to progress`);
    }
    assert.deepEqual(updates, [1, 2, 3]);
    assert.ok(clock.now > 1000, 'the call outlived its timeout');
    server.reply(request.id, { content: [{ type: 'text', text: 'finished' }] });
    await call.done;
    assert.equal(call.state(), 'resolved');
  });

  it('keeps a long call alive on progress even without onProgress (it asks for progress anyway)', async () => {
    await connect({ timeout: 1000 });
    const call = watch(client.callTool('long'));
    const request = await server.request('tools/call');
    const progressToken = (request.params!._meta as { progressToken?: unknown } | undefined)?.progressToken;
    assert.ok(progressToken !== undefined, 'tools/call carries a progress token');
    for (let step = 1; step <= 3; step++) {
      await clock.advance(900);
      server.notify('notifications/progress', { progressToken, progress: step });
      await settle();
      assert.equal(call.state(), 'pending', `alive at ${clock.now} ms thanks to progress`);
    }
    server.reply(request.id, { content: [{ type: 'text', text: 'finished' }] });
    await call.done;
    assert.equal(call.state(), 'resolved');
  });

  it('does not restart it with resetTimeoutOnProgress: false', async () => {
    await connect({ timeout: 1000, resetTimeoutOnProgress: false });
    const call = watch(client.callTool('long', {}, { onProgress: () => {} }));
    const request = await server.request('tools/call');
    const progressToken = (request.params!._meta as { progressToken: unknown }).progressToken;
    await clock.advance(900);
    server.notify('notifications/progress', { progressToken, progress: 1 });
    await settle();
    await clock.advance(100);
    await assertTimedOut(call, request, 1000, 'idle');
  });

  it('ends a call that keeps reporting progress after 10 minutes in all, by default', async () => {
    await connect();
    const call = watch(client.callTool('endless', {}, { onProgress: () => {} }));
    const request = await server.request('tools/call');
    const progressToken = (request.params!._meta as { progressToken: unknown }).progressToken;
    for (let step = 1; clock.now + 50_000 < 600_000; step++) {
      await clock.advance(50_000);
      server.notify('notifications/progress', { progressToken, progress: step });
      await settle();
    }
    assert.equal(call.state(), 'pending', `alive at ${clock.now} ms`);
    await clock.advance(600_000 - clock.now);
    await assertTimedOut(call, request, 600_000, 'total');
  });

  it('takes a per-call maximum total time', async () => {
    await connect({ timeout: 1000 });
    const call = watch(client.callTool('endless', {}, { onProgress: () => {}, maxTotalTimeout: 2500 }));
    const request = await server.request('tools/call');
    const progressToken = (request.params!._meta as { progressToken: unknown }).progressToken;
    for (let step = 1; step <= 2; step++) {
      await clock.advance(800);
      server.notify('notifications/progress', { progressToken, progress: step });
      await settle();
    }
    assert.equal(call.state(), 'pending');
    await clock.advance(900);
    await assertTimedOut(call, request, 2500, 'total');
  });
});
