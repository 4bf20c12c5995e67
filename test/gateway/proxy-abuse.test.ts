// The proxy's HTTP front against careless and hostile clients: a session's back server is ended with its
// session even when the session ends while that server is still starting (a client that DELETEs as soon as
// the SSE stream gave it the session id, or a flood doing so), so the processes stay bounded by
// --max-sessions. Back servers here are in memory; each counts as running from open() until its transport
// closes.

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type HttpProxy, proxyHttp } from '../../src/gateway/proxy.js';
import type { Transport } from '../../src/jsonrpc/transport.js';
import { McpServer } from '../../src/server/server.js';
import { createInMemoryPair } from '../../src/transport/memory.js';

/** Back servers: the first (the shared one) starts at once; the others wait until `release()`. */
function slowBacks() {
  let running = 0;
  let opened = 0;
  const gates: Array<() => void> = [];
  const open = (): Transport => {
    const [front, back] = createInMemoryPair();
    running++;
    const first = opened++ === 0;
    let closed = false;
    const onClosed = () => {
      if (!closed) running--;
      closed = true;
    };
    const close = front.close.bind(front);
    front.close = async () => {
      onClosed();
      await close();
    };
    const server = new McpServer({ name: 'slow', version: '1.0.0' });
    if (first) server.connect(back);
    else gates.push(() => server.connect(back));
    return front;
  };
  return {
    open,
    get running() {
      return running;
    },
    get waiting() {
      return gates.length;
    },
    release: () => {
      for (const gate of gates.splice(0)) gate();
    },
  };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('proxy --http: a session that ends while its server starts', () => {
  const proxies: HttpProxy[] = [];
  after(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
  });

  it('ends that server once it has started, so DELETE floods leave no process behind', async () => {
    const backs = slowBacks();
    const proxy = await proxyHttp(
      { open: backs.open, clientInfo: { name: 'probe', version: '1' } },
      { port: 0, maxSessions: 3 },
    );
    proxies.push(proxy);
    assert.equal(backs.running, 1, 'the shared server');
    const rounds = 6;
    for (let round = 0; round < rounds; round++) {
      const controller = new AbortController();
      const response = await fetch(proxy.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initialize),
        signal: controller.signal,
      });
      // The stream opened after 50 ms, before the answer: the session id is known already.
      const id = response.headers.get('mcp-session-id');
      assert.ok(id, 'the SSE stream names its session');
      const ended = await fetch(proxy.url, { method: 'DELETE', headers: { 'mcp-session-id': id } });
      assert.equal(ended.status, 200);
      controller.abort();
    }
    await until(() => backs.waiting === rounds, 'every session server to be asked to start');
    // Ended while starting, at the DELETE: a server that takes long to start is not left running meanwhile.
    await until(() => backs.running === 1, `the ${rounds} ended sessions' servers to end`);
    backs.release();
    // And they stay ended once they would have started.
    const proof = fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(initialize),
    });
    await until(() => backs.waiting === 1, 'the next session server to be asked to start');
    backs.release();
    const answer = await proof;
    assert.equal(answer.status, 200);
    const body = (await answer.json()) as { result: { serverInfo: { name: string } } };
    assert.equal(body.result.serverInfo.name, 'slow');
    assert.equal(backs.running, 2, 'the shared server and the live session');
  });
});
