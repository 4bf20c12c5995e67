// What replay reads from a trace log and how it compares two answers.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareAnswers, ReplayLogError, readReplayScript } from '../../src/inspect/replay-script.js';

const line = (record: unknown) => JSON.stringify(record);
const message = (from: 'client' | 'server', payload: unknown, extra: Record<string, unknown> = {}) =>
  line({ type: 'message', time: '2026-12-04T00:00:00.000Z', from, payload, ...extra });

describe('readReplayScript', () => {
  it("keeps the client's messages in order, with the recorded answers where they came", () => {
    const log = [
      message('client', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
      line({ type: 'stderr', time: 'x', text: 'starting\n' }),
      message('server', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25' } }),
      message('client', { jsonrpc: '2.0', method: 'notifications/initialized' }),
      message('client', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask' } }),
      message('server', { jsonrpc: '2.0', id: 0, method: 'sampling/createMessage', params: {} }),
      message('server', { jsonrpc: '2.0', method: 'notifications/message', params: {} }),
      message('client', { jsonrpc: '2.0', id: 0, result: { role: 'assistant' } }),
      message('server', { jsonrpc: '2.0', id: 2, result: { content: [] } }),
      // An answer to nothing the client asked is not expected of the new run.
      message('server', { jsonrpc: '2.0', id: 99, result: {} }),
    ].join('\n');
    const [conversation, ...rest] = readReplayScript(log);
    assert.equal(rest.length, 0);
    assert.deepEqual(
      conversation!.steps.map((s) => [s.kind, 'method' in s ? s.method : undefined]),
      [
        ['send', 'initialize'],
        ['expect-response', 'initialize'],
        ['send', 'notifications/initialized'],
        ['send', 'tools/call'],
        ['expect-request', 'sampling/createMessage'],
        ['answer', undefined],
        ['expect-response', 'tools/call'],
      ],
    );
  });

  it('makes one conversation of each HTTP session, and one of what travelled outside sessions', () => {
    const log = [
      message(
        'client',
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
        { session: 'a', stream: 'POST#1' },
      ),
      message(
        'client',
        { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} },
        { stream: 'POST#2' },
      ),
      message(
        'client',
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
        { session: 'b', stream: 'POST#3' },
      ),
      message('server', { jsonrpc: '2.0', id: 1, result: {} }, { session: 'b', stream: 'POST#3' }),
    ].join('\n');
    assert.deepEqual(
      readReplayScript(log).map((c) => [c.session, c.steps.length]),
      [
        ['a', 1],
        [undefined, 1],
        ['b', 2],
      ],
    );
  });

  it('refuses a log that is not jsonl, or has no messages, saying how to record one', () => {
    assert.throws(() => readReplayScript('12:00:00.000 → {"jsonrpc":"2.0"}\n'), ReplayLogError);
    assert.throws(
      () => readReplayScript(`${line({ type: 'stderr', time: 'x', text: 'hi' })}\n`),
      /--format jsonl/,
    );
  });
});

describe('compareAnswers', () => {
  it('finds nothing between answers that differ only in id, timestamps and timing fields', () => {
    const recorded = {
      jsonrpc: '2.0',
      id: 1,
      result: {
        at: 1,
        createdAt: '2026-01-01T00:00:00Z',
        stamp: '2026-12-04T10:00:00.123Z',
        durationMs: 4,
        elapsed: 2,
      },
    };
    const now = {
      jsonrpc: '2.0',
      id: 7,
      result: {
        at: 1,
        createdAt: '2026-12-04T00:00:00Z',
        stamp: '2026-12-05T11:00:00.999Z',
        durationMs: 9,
        elapsed: 3,
      },
    };
    assert.deepEqual(compareAnswers(recorded, now), []);
  });

  it('names each place that differs, a timing key that appeared or vanished included', () => {
    const recorded = {
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'a' }], version: '1', tookMs: 3 },
    };
    const now = {
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [
          { type: 'text', text: 'b' },
          { type: 'text', text: 'c' },
        ],
        version: '2',
      },
    };
    assert.deepEqual(compareAnswers(recorded, now), [
      { path: 'result.content[0].text', recorded: 'a', now: 'b' },
      { path: 'result.content[1]', now: { type: 'text', text: 'c' } },
      { path: 'result.version', recorded: '1', now: '2' },
      { path: 'result.tookMs', recorded: 3 },
    ]);
    assert.deepEqual(compareAnswers(recorded, now, new Set(['version', 'content'])), [
      { path: 'result.tookMs', recorded: 3 },
    ]);
  });

  it('tells an error from a result', () => {
    const found = compareAnswers(
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no' } },
    );
    assert.deepEqual(
      found.map((d) => d.path),
      ['result', 'error'],
    );
  });
});
