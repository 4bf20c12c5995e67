// Streamable HTTP, GET: opens the session's stream for messages that belong to no request. It starts
// with a priming event, carries what the server sends on its own, and is refused without an SSE Accept
// or while another GET stream of the session is open.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  EventReader,
  expectJsonRpcError,
  listen,
  openSession,
  post,
  type Session,
} from '../support/http-helpers.js';
import { cites } from '../support/requirements.js';

type Listening = Awaited<ReturnType<typeof listen>>;

describe('the GET stream', { timeout: 10_000 }, () => {
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
    'http.get-stream',
    'http.priming-event',
  ])`carries server-initiated messages, after a priming event`, async () => {
    const controller = new AbortController();
    const response = await fetch(t.listener.url, {
      headers: { ...session.headers, Accept: 'text/event-stream' },
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('mcp-session-id'), session.id);
    const reader = new EventReader(response);
    const priming = await reader.next();
    assert.ok(priming?.id, 'the priming event has an id');
    assert.equal(priming.data, '');

    const subscribed = await post(
      t.listener.url,
      { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'mem://a' } },
      { ...session.headers, Accept: 'application/json' },
    );
    assert.deepEqual(await subscribed.json(), { jsonrpc: '2.0', id: 2, result: {} });
    t.server.notifyResourceUpdated('mem://a');

    const { id, message } = await reader.nextMessage();
    assert.deepEqual(message, {
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'mem://a' },
    });
    assert.ok(id && id !== priming.id, 'each event has its own id');
    controller.abort();
    await reader.cancel();
  });

  it('refuses a GET that does not accept text/event-stream with 406', async () => {
    const response = await fetch(t.listener.url, {
      headers: { ...session.headers, Accept: 'application/json' },
    });
    await expectJsonRpcError(response, 406, -32600, /text\/event-stream/);
  });

  it('refuses a second GET stream while one is open with 409', async () => {
    const other = await openSession(t.listener.url);
    const controller = new AbortController();
    const first = await fetch(t.listener.url, {
      headers: { ...other.headers, Accept: 'text/event-stream' },
      signal: controller.signal,
    });
    assert.equal(first.status, 200);
    const second = await fetch(t.listener.url, {
      headers: { ...other.headers, Accept: 'text/event-stream' },
    });
    await expectJsonRpcError(second, 409, -32600, /already has an open GET stream/);
    controller.abort();
    await first.body?.cancel().catch(() => {});
  });
});
