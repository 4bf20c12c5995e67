// The endpoint's kept-alive connections: idle for 65 s by default, not Node's 5 s, so that a client calling
// every few seconds, or a load balancer that keeps connections idle for 60 s, never sends a request on a
// connection the server is closing at that moment. fetch (undici) takes the Keep-Alive hint less 2 s:
// against Node's default (timeout=5) it dropped a connection idle for 3 s, and opened a new one for the
// next call. The option sets it.

import assert from 'node:assert/strict';
import http from 'node:http';
import type { Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { initializeRequest, listen } from '../support/http-helpers.js';

type Listening = Awaited<ReturnType<typeof listen>>;

/** POSTs an initialize on the agent; the answer's Keep-Alive header and the socket it came on. */
function initialize(url: string, agent: http.Agent): Promise<{ keepAlive: unknown; socket: Socket }> {
  const body = JSON.stringify(initializeRequest());
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ keepAlive: response.headers['keep-alive'], socket: request.socket! }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('Streamable HTTP: kept-alive connections', () => {
  const opened: Listening[] = [];
  const agents: http.Agent[] = [];
  after(async () => {
    for (const agent of agents) agent.destroy();
    for (const server of opened) await server.listener.close();
  });

  it('keeps an idle connection for 65 s by default, and says so in Keep-Alive', async () => {
    const server = await listen();
    opened.push(server);
    const agent = new http.Agent({ keepAlive: true });
    agents.push(agent);
    const { keepAlive } = await initialize(server.listener.url, agent);
    assert.equal(keepAlive, 'timeout=65');
    assert.equal(server.listener.server.keepAliveTimeout, 65_000);
  });

  it('takes keepAliveTimeout from the options, and serves the next request on the same connection', async () => {
    const server = await listen({ keepAliveTimeout: 10_000 });
    opened.push(server);
    const agent = new http.Agent({ keepAlive: true });
    agents.push(agent);
    const first = await initialize(server.listener.url, agent);
    assert.equal(first.keepAlive, 'timeout=10');
    const second = await initialize(server.listener.url, agent);
    assert.equal(second.socket, first.socket);
  });
});
