// notifications/cancelled: an in-flight tool call is aborted through its context's signal and gets no
// response; cancellations of unknown or finished requests, or malformed ones, are ignored.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { deferred, Wire } from '../support/wire.js';

function server() {
  const started = deferred();
  const aborted = deferred<unknown>();
  const s = new McpServer({ name: 'cancel', version: '1.0.0' });
  s.tool({ name: 'slow' }, async (_args, ctx) => {
    started.resolve();
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    aborted.resolve(ctx.signal.reason);
    return { content: [{ type: 'text', text: 'finished anyway' }] };
  });
  s.tool({ name: 'quick' }, () => ({ content: [{ type: 'text', text: 'quick' }] }));
  return { s, started, aborted };
}

describe('cancellation', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[cancellation.stop] aborts an in-flight tool call and sends no response for it (${revision})`, async () => {
      const { s, started, aborted } = server();
      const wire = await Wire.open(s, revision);
      wire.send({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'slow' } });
      await started.promise;
      wire.notify('notifications/cancelled', { requestId: 'c1', reason: 'the user gave up' });
      const reason = await aborted.promise;
      assert.ok(reason instanceof Error);
      assert.match(reason.message, /the user gave up/);
      await wire.settle();
      assert.equal(
        wire.received.some((m) => (m as { id?: unknown }).id === 'c1'),
        false,
        'the cancelled request was answered',
      );
      await wire.close();
    });
  }

  it('[cancellation.ignore-invalid] ignores cancellations of unknown, finished and malformed requests', async () => {
    const { s } = server();
    const wire = await Wire.open(s, '2025-11-25');
    const done = await wire.request('tools/call', { name: 'quick' }, 'q1');
    assert.ok(done.result);
    const before = wire.received.length;
    wire.notify('notifications/cancelled', { requestId: 'q1' });
    wire.notify('notifications/cancelled', { requestId: 'never-sent', reason: 'x' });
    wire.notify('notifications/cancelled', { requestId: { nested: true } });
    wire.notify('notifications/cancelled');
    await wire.settle();
    // Nothing but the ping's answer: no error, no response to the notifications.
    assert.equal(wire.received.length, before + 1);
    const again = await wire.result<{ content: Array<{ text: string }> }>('tools/call', { name: 'quick' });
    assert.equal(again.content[0]?.text, 'quick');
    await wire.close();
  });

  it('[cancellation.stop] leaves other requests in flight alone', async () => {
    const { s, started, aborted } = server();
    const wire = await Wire.open(s, '2025-06-18');
    wire.send({ jsonrpc: '2.0', id: 'slow-1', method: 'tools/call', params: { name: 'slow' } });
    await started.promise;
    const quick = wire.request('tools/call', { name: 'quick' }, 'quick-1');
    wire.notify('notifications/cancelled', { requestId: 'slow-1' });
    await aborted.promise;
    assert.ok((await quick).result);
    await wire.close();
  });
});
