// Streamable HTTP, POST: a request is answered on an SSE stream (the default) or with a JSON body, as the
// server is configured and as the client's Accept header allows; notifications and responses get 202.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  EventReader,
  expectJsonRpcError,
  Gate,
  listen,
  openSession,
  post,
  readAllEvents,
  type Session,
} from '../support/http-helpers.js';
import { cites } from '../support/requirements.js';

type Listening = Awaited<ReturnType<typeof listen>>;

const echo = (id: number, text: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text } },
});

function textOf(message: Record<string, unknown>): string | undefined {
  return (message.result as { content?: Array<{ text?: string }> } | undefined)?.content?.[0]?.text;
}

describe('POST on an SSE server (the default)', { timeout: 10_000 }, () => {
  let t: Listening;
  let session: Session;

  before(async () => {
    t = await listen();
    session = await openSession(t.listener.url);
  });

  after(async () => {
    await t?.listener.close();
  });

  it(cites([
    'http.post-response-kind',
    'http.sse-request-stream',
  ])`answers a request on an SSE stream that ends after the response`, async () => {
    const response = await post(t.listener.url, echo(2, 'over sse'), session.headers);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('mcp-session-id'), session.id);
    const messages = (await readAllEvents(response)).filter((e) => e.data !== '');
    assert.equal(messages.length, 1, 'one message, then the stream ended');
    assert.equal(messages[0]?.event, 'message');
    const message = JSON.parse(messages[0]!.data) as Record<string, unknown>;
    assert.equal(message.id, 2);
    assert.equal(textOf(message), 'over sse');
  });

  it(cites(
    'http.sse-request-stream',
  )`sends the messages related to a request on its stream, before the response`, async () => {
    t.gate.current.open();
    const response = await post(
      t.listener.url,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'wait', _meta: { progressToken: 'p' } },
      },
      session.headers,
    );
    const reader = new EventReader(response);
    const kinds: unknown[] = [];
    for (let message: Record<string, unknown> = {}; message.id !== 3; ) {
      ({ message } = await reader.nextMessage());
      kinds.push(message.method ?? `response ${String(message.id)}`);
    }
    assert.deepEqual(kinds, ['notifications/progress', 'notifications/progress', 'response 3']);
    assert.equal(await reader.next(), undefined, 'the stream ended after the response');
  });

  it(cites(
    'http.post-response-kind',
  )`answers with JSON when the client accepts only application/json (bug: it answered SSE)`, async () => {
    const response = await post(t.listener.url, echo(4, 'json please'), {
      ...session.headers,
      Accept: 'application/json',
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body.id, 4);
    assert.equal(textOf(body), 'json please');
  });

  it('answers with an SSE event of more than 1 MiB (written as bytes) whole', async () => {
    const text = `${'é'.repeat(600_000)}${'😀'.repeat(250_000)}`;
    const response = await post(t.listener.url, echo(13, text), session.headers);
    const messages = (await readAllEvents(response)).filter((e) => e.data !== '');
    assert.equal(messages.length, 1);
    const message = JSON.parse(messages[0]!.data) as Record<string, unknown>;
    assert.equal(message.id, 13);
    assert.equal(textOf(message), text);
  });

  it('refuses with 406 a POST that accepts neither JSON nor SSE', async () => {
    const response = await post(t.listener.url, echo(5, 'x'), { ...session.headers, Accept: 'text/html' });
    await expectJsonRpcError(response, 406, -32600, /Not Acceptable/);
  });

  it(cites('http.post-accepted')`accepts a notification with 202 and no body`, async () => {
    const response = await post(
      t.listener.url,
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      session.headers,
    );
    assert.equal(response.status, 202);
    assert.equal(await response.text(), '');
  });

  it(cites('http.post-accepted')`accepts a response with 202 and no body`, async () => {
    const response = await post(t.listener.url, { jsonrpc: '2.0', id: 'srv-1', result: {} }, session.headers);
    assert.equal(response.status, 202);
    assert.equal(await response.text(), '');
  });

  it(cites(
    'http.post-refused',
  )`refuses a body that is no JSON-RPC message with 400 (bug: it was accepted with 202)`, async () => {
    for (const body of [{ hello: 'world' }, 42, { jsonrpc: '2.0', id: 7, method: 12 }]) {
      const response = await post(t.listener.url, body, session.headers);
      await expectJsonRpcError(response, 400, -32600, /Invalid Request/);
    }
    // The session still works.
    const response = await post(t.listener.url, echo(8, 'still here'), {
      ...session.headers,
      Accept: 'application/json',
    });
    assert.equal(textOf((await response.json()) as Record<string, unknown>), 'still here');
  });

  it('sends every answer of a refused batch on its SSE stream (bug: the stream ended after the first)', async () => {
    const response = await post(t.listener.url, [echo(10, 'one'), echo(11, 'two')], session.headers);
    const ids = (await readAllEvents(response))
      .filter((e) => e.data !== '')
      .map((e) => (JSON.parse(e.data) as { id: number }).id);
    assert.deepEqual(ids, [10, 11]);
  });

  it('refuses an empty batch with 400', async () => {
    await expectJsonRpcError(await post(t.listener.url, [], session.headers), 400, -32600, /empty batch/);
  });
});

describe('POST on a server configured with jsonResponse', { timeout: 10_000 }, () => {
  let t: Listening;
  let session: Session;

  before(async () => {
    t = await listen({ jsonResponse: true });
    session = await openSession(t.listener.url);
  });

  after(async () => {
    await t?.listener.close();
  });

  it(cites('http.post-response-kind')`answers a request with one JSON body`, async () => {
    const response = await post(t.listener.url, echo(2, 'as json'), session.headers);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body.id, 2);
    assert.equal(textOf(body), 'as json');
  });

  it('answers with a body of more than 1 MiB (written as bytes) whole, its Content-Length in bytes', async () => {
    // 1.2 million UTF-16 units, 2.1 MB of UTF-8: a length counted in units would cut the body short.
    const text = `${'é'.repeat(600_000)}${'€'.repeat(300_000)}${'😀'.repeat(150_000)}`;
    const response = await post(t.listener.url, echo(12, text), session.headers);
    const raw = Buffer.from(await response.arrayBuffer());
    assert.equal(Number(response.headers.get('content-length')), raw.length);
    const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    assert.equal(body.id, 12);
    assert.equal(textOf(body), text);
  });

  it('answers each request of a refused batch (bug: the body was sent after the first response)', async () => {
    // Batches belong to 2025-03-26 only; at 2025-11-25 each request of one gets its own error.
    const response = await post(t.listener.url, [echo(3, 'one'), echo(4, 'two')], session.headers);
    const body = (await response.json()) as Array<{ id: number; error?: { code: number; message: string } }>;
    assert.deepEqual(
      body.map((m) => [m.id, m.error?.code]),
      [
        [3, -32600],
        [4, -32600],
      ],
    );
    assert.match(body[0]!.error!.message, /batches are not supported/);
  });

  it(cites('batch.receive')`answers a batch with an array of responses at 2025-03-26`, async () => {
    const old = await openSession(t.listener.url, '2025-03-26');
    const response = await post(t.listener.url, [echo(3, 'one'), echo(4, 'two')], old.headers);
    const body = (await response.json()) as Array<Record<string, unknown>>;
    assert.deepEqual(
      body.map((m) => [m.id, textOf(m)]),
      [
        [3, 'one'],
        [4, 'two'],
      ],
    );
  });

  it(cites(
    'http.post-response-kind',
  )`answers on SSE when the client accepts only text/event-stream`, async () => {
    const response = await post(t.listener.url, echo(5, 'sse please'), {
      ...session.headers,
      Accept: 'text/event-stream',
    });
    const messages = (await readAllEvents(response)).filter((e) => e.data !== '');
    assert.equal(textOf(JSON.parse(messages[0]!.data)), 'sse please');
  });

  it('bug: an id reused while the first request was in flight lost the first result; the second POST alone is refused', async () => {
    t.started.current = new Gate();
    t.gate.current = new Gate();
    const call = { jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'wait' } };
    const first = post(t.listener.url, call, session.headers);
    await t.started.current.opened;
    const second = await post(t.listener.url, { jsonrpc: '2.0', id: 77, method: 'ping' }, session.headers);
    assert.equal(second.status, 400);
    const refusal = (await second.json()) as { id: unknown; error: { code: number; message: string } };
    assert.equal(refusal.id, 77);
    assert.equal(refusal.error.code, -32600);
    assert.match(refusal.error.message, /already in use/);
    t.gate.current.open();
    const answer = await first;
    // This server answers with JSON; an SSE answer is read too, should its configuration change.
    const sse = (answer.headers.get('content-type') ?? '').includes('text/event-stream');
    const result = sse
      ? (await readAllEvents(answer))
          .map((e) => (e.data === '' ? {} : JSON.parse(e.data)))
          .find((m) => m.id === 77)
      : await answer.json();
    assert.equal(textOf(result), 'done waiting', 'the first request still gets its own result');
  });
});
