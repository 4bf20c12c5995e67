// The inspector's feed, in process: entries numbered in order, a response paired with its request (per
// server and direction, so that equal ids of two servers never mix), faults kept with their bytes, the
// oldest dropped past the limit, listeners told in batches, and a server's part exported as a jsonl log
// that replay's reader takes back as the same conversation.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readReplayScript } from '../../src/inspect/replay-script.js';
import { Feed } from '../../src/inspect/web/feed.js';

const request = (id: number, method: string) => ({ jsonrpc: '2.0', id, method, params: {} });
const result = (id: number, value: unknown = {}) => ({ jsonrpc: '2.0', id, result: value });

describe('the inspector feed', () => {
  it('pairs each response with its request, per server', () => {
    let now = 1000;
    const feed = new Feed(() => now++);
    feed.message('a', { from: 'client', payload: request(1, 'tools/list') });
    feed.message('b', { from: 'client', payload: request(1, 'ping') });
    feed.message('b', { from: 'server', payload: result(1), latencyMs: 2, answers: 'ping' });
    feed.message('a', { from: 'server', payload: result(1), latencyMs: 3, answers: 'tools/list' });
    const entries = feed.after(0);
    assert.deepEqual(
      entries.map((e) => [e.seq, e.server, e.type === 'message' ? e.pair : undefined]),
      [
        [1, 'a', undefined],
        [2, 'b', undefined],
        [3, 'b', 2],
        [4, 'a', 1],
      ],
    );
    assert.deepEqual(
      entries.map((e) => e.at),
      [1000, 1001, 1002, 1003],
    );
    assert.deepEqual(
      feed.after(2).map((e) => e.seq),
      [3, 4],
    );
  });

  it('pairs a server request with the client answer', () => {
    const feed = new Feed();
    feed.message('a', { from: 'server', payload: request(7, 'elicitation/create') });
    feed.message('a', { from: 'client', payload: result(7, { action: 'decline' }) });
    const [, answer] = feed.after(0);
    assert.equal(answer?.type === 'message' ? answer.pair : undefined, 1);
  });

  it('drops the oldest entries past its limit and keeps counting', () => {
    const feed = new Feed(Date.now, 10);
    for (let i = 0; i < 25; i++) feed.stderr('a', `line ${i}`);
    assert.ok(feed.size <= 10);
    assert.equal(feed.lastSeq, 25);
    const kept = feed.after(0);
    assert.equal(kept.at(-1)?.seq, 25);
    assert.deepEqual(
      feed.after(23).map((e) => e.seq),
      [24, 25],
    );
  });

  it('tells its listeners in one batch per turn of the event loop', async () => {
    const feed = new Feed();
    const batches: number[][] = [];
    feed.subscribe((entries) => batches.push(entries.map((e) => e.seq)));
    feed.stderr('a', 'one');
    feed.problem('a', { kind: 'not-json', from: 'server', message: 'm', bytes: 'hello' });
    await new Promise((resolve) => setImmediate(resolve));
    feed.host('a', 'ready');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(batches, [[1, 2], [3]]);
  });

  it("exports one server's part as a trace log that replay reads back", () => {
    const feed = new Feed();
    feed.message('a', { from: 'client', payload: request(1, 'tools/list') });
    feed.message('b', { from: 'client', payload: request(1, 'ping') });
    feed.problem('a', { kind: 'unknown-response', from: 'server', message: 'no such id', bytes: '{}' });
    feed.message('a', {
      from: 'server',
      payload: result(1, { tools: [] }),
      latencyMs: 4,
      answers: 'tools/list',
    });
    feed.host('a', 'ready');
    const log = feed.traceLog('a');
    const records = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      records.map((r) => r.type),
      ['message', 'problem', 'message'],
    );
    assert.equal(records[2]!.latencyMs, 4);
    assert.match(String(records[0]!.time), /^\d{4}-\d\d-\d\dT/);
    const [conversation] = readReplayScript(log);
    assert.deepEqual(
      conversation!.steps.map((s) => s.kind),
      ['send', 'expect-response'],
    );
  });
});
