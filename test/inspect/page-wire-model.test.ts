// The page's pure logic besides forms: what each wire row says, the filter over the whole feed, latency
// per method, which entries the logs show from a level up, and resource templates filled in.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedEntry } from '../../page/src/types.js';
import { fillTemplate, templateVariables } from '../../page/src/uri-template.js';
import { filterFeed, latencyByMethod, logEntries, rowOf, summary } from '../../page/src/wire-model.js';

let seq = 0;
const message = (server: string, from: 'client' | 'server', payload: unknown, extra = {}): FeedEntry => ({
  seq: ++seq,
  at: 1000 + seq,
  server,
  type: 'message',
  from,
  payload,
  ...extra,
});

const feed: FeedEntry[] = [
  message('a', 'client', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }),
  message(
    'a',
    'server',
    { jsonrpc: '2.0', id: 1, result: {} },
    { latencyMs: 10, answers: 'tools/call', pair: 1 },
  ),
  message('b', 'client', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }),
  message(
    'b',
    'server',
    { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } },
    { latencyMs: 30, answers: 'tools/call' },
  ),
  message('b', 'server', {
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'debug', data: 'quiet' },
  }),
  message('b', 'server', {
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'error', data: 'loud' },
  }),
  message('b', 'server', { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }),
  {
    seq: ++seq,
    at: 2000,
    server: 'b',
    type: 'problem',
    kind: 'duplicate-id',
    from: 'client',
    message: 'id 1 again',
  },
  { seq: ++seq, at: 2001, server: 'a', type: 'stderr', text: 'hello' },
];

describe('the wire view model', () => {
  it('names each row by its method, or by what it answers, and marks faults', () => {
    assert.deepEqual(
      feed.map((e) => [rowOf(e).arrow, rowOf(e).label, rowOf(e).fault]),
      [
        ['→', 'tools/call', false],
        ['←', 'result of tools/call', false],
        ['→', 'tools/call', false],
        ['←', 'error of tools/call', false],
        ['←', 'notifications/message', false],
        ['←', 'notifications/message', false],
        ['←', 'notifications/progress', false],
        ['✗', 'duplicate-id', true],
        ['·', 'stderr', false],
      ],
    );
    assert.equal(summary(feed[7]!), 'id 1 again');
    assert.equal(summary(feed[0]!, 10), '{"jsonrpc"…');
  });

  it('filters by method, server, id and faults', () => {
    assert.deepEqual(filterFeed(feed, { text: 'tools/call', faultsOnly: false, server: '' }), [0, 1, 2, 3]);
    assert.deepEqual(filterFeed(feed, { text: 'TOOLS', faultsOnly: false, server: 'b' }), [2, 3]);
    assert.deepEqual(filterFeed(feed, { text: '', faultsOnly: true, server: '' }), [7]);
    assert.deepEqual(filterFeed(feed, { text: '1', faultsOnly: false, server: '' }), [0, 1, 2, 3]);
  });

  it('sums up latency per method, errors counted', () => {
    assert.deepEqual(latencyByMethod(feed), [
      { method: 'tools/call', count: 2, errors: 1, mean: 20, p50: 30, p95: 30, max: 30 },
    ]);
  });

  it('shows log messages from the chosen level up, with other notifications and stderr', () => {
    const shown = (level: string) => logEntries(feed, level).map((e) => e.seq);
    assert.deepEqual(shown('debug'), [5, 6, 7, 9]);
    assert.deepEqual(shown('warning'), [6, 7, 9]);
  });
});

describe('resource templates on the page', () => {
  it('lists their variables and fills them in, encoded as each operator says', () => {
    assert.deepEqual(templateVariables('file:///{+path}{?mode,lines}'), ['path', 'mode', 'lines']);
    assert.equal(fillTemplate('users://{id}/profile', { id: 'a b' }), 'users://a%20b/profile');
    assert.equal(fillTemplate('file:///{+path}', { path: 'dir/x y.txt' }), 'file:///dir/x%20y.txt');
    assert.equal(fillTemplate('search://{?q,n}', { q: 'mcp', n: '2' }), 'search://?q=mcp&n=2');
  });
});
