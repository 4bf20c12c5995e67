// The HTTP monitor behind `mcpwire trace --http`, fed exchanges by hand: what it owes a request depends on
// the era and the stream that carried it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpMonitor, type HttpTraceMessage, type HttpTraceProblem } from '../../src/inspect/http-monitor.js';

const STATELESS = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };

function monitor() {
  const problems: HttpTraceProblem[] = [];
  const http = new HttpMonitor({ problem: (p) => problems.push(p) });
  /** One whole exchange: a request, its answer's head, its body, and how it ended. */
  const exchange = (
    method: string,
    request: unknown,
    status: number,
    answer: { type?: string; body?: string; headers?: Record<string, string> } = {},
    end: 'server' | 'client' = 'server',
    requestHeaders: Record<string, string> = {},
  ) => {
    const x = http.exchange({ method, path: '/mcp', headers: requestHeaders });
    if (request !== undefined) x.requestBody(Buffer.from(JSON.stringify(request)));
    x.requestEnd();
    x.response(status, { ...(answer.type ? { 'content-type': answer.type } : {}), ...answer.headers });
    if (answer.body !== undefined) x.responseBody(Buffer.from(answer.body));
    if (end === 'server') x.responseEnd();
    else x.closedByClient();
  };
  return { http, problems, exchange };
}

describe('HttpMonitor', () => {
  it('keeps the requests of 2026-07-28 exchanges apart: the same id in two exchanges is no duplicate', () => {
    const { problems, exchange } = monitor();
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: STATELESS } };
    // A long request the client gives up on, then another client's request with the same id.
    exchange('POST', request, 200, { type: 'text/event-stream', body: '' }, 'client');
    exchange('POST', request, 200, {
      type: 'application/json',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [] } }),
    });
    assert.deepEqual(problems, []);
  });

  it('flags a 2026-07-28 request whose stream the server ended without its response', () => {
    const { problems, exchange } = monitor();
    const request = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x', _meta: STATELESS } };
    exchange('POST', request, 200, { type: 'text/event-stream', body: ': nothing\n\n' });
    assert.deepEqual(
      problems.map((p) => [p.kind, p.stream]),
      [['unanswered', 'POST#1']],
    );
  });

  it('takes an HTTP error status as the answer to the requests of its POST', () => {
    const { problems, exchange } = monitor();
    // What a client falling back to HTTP+SSE does: initialize refused with 405, then sent again.
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    exchange('POST', initialize, 405, { type: 'text/plain', body: 'Method Not Allowed' });
    exchange(
      'GET',
      undefined,
      200,
      { type: 'text/event-stream', body: 'event: endpoint\ndata: /messages?s=1\n\n' },
      'client',
    );
    exchange('POST', initialize, 202);
    assert.deepEqual(problems, []);
  });

  it('flags a response on the GET stream, but not on the stream of the older HTTP+SSE transport', () => {
    const plain = monitor();
    const session = { 'mcp-session-id': 's1' };
    plain.exchange('POST', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, 200, {
      type: 'application/json',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }),
      headers: session,
    });
    plain.exchange(
      'GET',
      undefined,
      200,
      {
        type: 'text/event-stream',
        body: `data: ${JSON.stringify({ jsonrpc: '2.0', id: 9, result: {} })}\n\n`,
      },
      'client',
      session,
    );
    assert.deepEqual(
      plain.problems.map((p) => [p.kind, p.session, p.stream]),
      [
        ['wrong-stream', 's1', 'GET#2'],
        ['unknown-response', 's1', 'GET#2'],
      ],
    );

    const legacy = monitor();
    const stream = legacy.http.exchange({ method: 'GET', path: '/sse', headers: {} });
    stream.requestEnd();
    stream.response(200, { 'content-type': 'text/event-stream' });
    stream.responseBody(Buffer.from('event: endpoint\ndata: /messages?s=1\n\n'));
    legacy.exchange('POST', { jsonrpc: '2.0', id: 1, method: 'ping' }, 202);
    stream.responseBody(
      Buffer.from(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n\n`),
    );
    assert.deepEqual(legacy.problems, []);
  });

  it('reads SSE events cut anywhere, inside a line or a character, as the whole stream at once', () => {
    const result = (id: number, text: string) => ({ jsonrpc: '2.0', id, result: { text } });
    const stream = `: hi\r\nevent: message\r\ndata: ${JSON.stringify(result(1, 'héllo 😀'))}\r\n\r\ndata: ${JSON.stringify(result(2, '€'))}\n\ndata: ${JSON.stringify(result(3, 'end'))}`;
    const bytes = Buffer.from(stream);
    const seen = (cuts: number[]) => {
      const messages: HttpTraceMessage[] = [];
      const problems: HttpTraceProblem[] = [];
      const http = new HttpMonitor({ message: (m) => messages.push(m), problem: (p) => problems.push(p) });
      const post = http.exchange({ method: 'POST', path: '/mcp', headers: {} });
      post.requestBody(
        Buffer.from(JSON.stringify([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'x' })))),
      );
      post.requestEnd();
      post.response(200, { 'content-type': 'text/event-stream' });
      let at = 0;
      for (const cut of [...cuts, bytes.length]) {
        post.responseBody(bytes.subarray(at, cut));
        at = cut;
      }
      post.responseEnd();
      assert.deepEqual(problems, []);
      return messages.filter((m) => m.from === 'server').map((m) => m.payload);
    };
    const whole = seen([]);
    assert.deepEqual(whole, [result(1, 'héllo 😀'), result(2, '€'), result(3, 'end')]);
    for (let cut = 1; cut < bytes.length; cut++) assert.deepEqual(seen([cut]), whole, `cut at byte ${cut}`);
    assert.deepEqual(
      seen(Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)),
      whole,
      'one byte at a time',
    );
  });

  it('flags an SSE event larger than a message may be while it arrives, and stops keeping it', () => {
    const problems: HttpTraceProblem[] = [];
    const http = new HttpMonitor({ problem: (p) => problems.push(p) }, { maxMessageSize: 1024 });
    const x = http.exchange({ method: 'GET', path: '/mcp', headers: {} });
    x.requestEnd();
    x.response(200, { 'content-type': 'text/event-stream' });
    // A server that writes one endless line: without a bound the monitor keeps all of it.
    x.responseBody(Buffer.from('data: '));
    for (let i = 0; i < 8; i++) x.responseBody(Buffer.from('x'.repeat(512)));
    assert.deepEqual(
      problems.map((p) => [p.kind, p.from, p.stream]),
      [['oversize', 'server', 'GET#1']],
    );
    assert.match(problems[0]!.message, /exceeds 1024 bytes/);
    // The rest of the stream is forwarded but not parsed: later events are not taken for broken ones.
    x.responseBody(Buffer.from('\n\ndata: {"jsonrpc":"2.0","method":"notifications/x"}\n\n'));
    x.responseEnd();
    assert.equal(problems.length, 1);
  });
});
