// Progress: notifications/progress for a request that asked for it with _meta.progressToken, values that
// only increase, the message field only where the revision has it, and nothing after the response.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestContext } from '../../src/protocol/context.js';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

interface Step {
  progress: number;
  total?: number;
  message?: string;
}

function server(steps: Step[], keep?: (ctx: RequestContext) => void): McpServer {
  const s = new McpServer({ name: 'progress', version: '1.0.0' });
  s.tool({ name: 'work' }, (_args, ctx) => {
    for (const step of steps) ctx.progress(step.progress, step.total, step.message);
    keep?.(ctx);
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return s;
}

function progressOf(wire: Wire): Array<Record<string, unknown>> {
  return wire.notifications('notifications/progress');
}

describe('progress', () => {
  for (const token of ['job-7', 7]) {
    it(`[progress.token] reports progress with the request's ${typeof token} token`, async () => {
      const wire = await Wire.open(
        server([
          { progress: 1, total: 2 },
          { progress: 2, total: 2 },
        ]),
        '2025-11-25',
      );
      await wire.result('tools/call', { name: 'work', _meta: { progressToken: token } });
      assert.deepEqual(progressOf(wire), [
        { progressToken: token, progress: 1, total: 2 },
        { progressToken: token, progress: 2, total: 2 },
      ]);
      await wire.close();
    });
  }

  it('[progress.token] sends no progress for a request without a token', async () => {
    const wire = await Wire.open(server([{ progress: 1 }, { progress: 2 }]), '2025-11-25');
    await wire.result('tools/call', { name: 'work' });
    await wire.result('tools/call', { name: 'work', _meta: {} });
    assert.deepEqual(progressOf(wire), []);
    await wire.close();
  });

  it('[progress.increasing] drops values that do not increase, floats and unknown totals included', async () => {
    const steps = [
      { progress: 0.5 },
      { progress: 0.5 },
      { progress: 0.25 },
      { progress: 1.5 },
      { progress: 1 },
    ];
    const wire = await Wire.open(server(steps), '2025-06-18');
    await wire.result('tools/call', { name: 'work', _meta: { progressToken: 't' } });
    assert.deepEqual(
      progressOf(wire).map((p) => p.progress),
      [0.5, 1.5],
    );
    await wire.close();
  });

  it('[progress.increasing] counts per request: a second request starts again', async () => {
    const wire = await Wire.open(server([{ progress: 1 }, { progress: 2 }]), '2025-11-25');
    await wire.result('tools/call', { name: 'work', _meta: { progressToken: 'a' } });
    await wire.result('tools/call', { name: 'work', _meta: { progressToken: 'b' } });
    assert.deepEqual(
      progressOf(wire).map((p) => [p.progressToken, p.progress]),
      [
        ['a', 1],
        ['a', 2],
        ['b', 1],
        ['b', 2],
      ],
    );
    await wire.close();
  });

  it('[progress.message, messages.revision-fields] sends the message from 2025-03-26 on, and drops it in 2024-11-05', async () => {
    const steps = [{ progress: 1, total: 4, message: 'a quarter' }];
    for (const [revision, expected] of [
      ['2024-11-05', { progressToken: 1, progress: 1, total: 4 }],
      ['2025-03-26', { progressToken: 1, progress: 1, total: 4, message: 'a quarter' }],
      ['2025-11-25', { progressToken: 1, progress: 1, total: 4, message: 'a quarter' }],
    ] as const) {
      const wire = await Wire.open(server(steps), revision);
      await wire.result('tools/call', { name: 'work', _meta: { progressToken: 1 } });
      assert.deepEqual(progressOf(wire), [expected], revision);
      await wire.close();
    }
  });

  it('[progress.stop-after-completion] sends progress before the response and never after it', async () => {
    let kept: RequestContext | undefined;
    const wire = await Wire.open(
      server([{ progress: 1 }], (ctx) => {
        kept = ctx;
      }),
      '2025-11-25',
    );
    const response = await wire.request('tools/call', { name: 'work', _meta: { progressToken: 'late' } });
    kept!.progress(2);
    kept!.progress(3, 3, 'after the fact');
    await wire.settle();
    const progress = wire.received.filter(
      (m) => (m as { method?: string }).method === 'notifications/progress',
    );
    assert.equal(progress.length, 1);
    assert.ok(wire.received.indexOf(progress[0]) < wire.received.indexOf(response));
    await wire.close();
  });
});
