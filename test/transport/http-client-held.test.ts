// The HTTP client transport while its authorization works (a person logging in after a 401): it tells the
// connection it holds the request, so that the request's timeout stands still, and lets go once the
// authorization is done, however that ends. A standalone request its sender gave up on meanwhile is not
// sent when the login completes.

import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { abortCancellation } from '../../src/jsonrpc/cancellation.js';
import { Connection } from '../../src/jsonrpc/connection.js';
import type { HttpAuthorization } from '../../src/transport/http/auth/oauth-client.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpRequester, HttpRequestOptions } from '../../src/transport/http/http-request.js';
import { deferred } from '../support/jsonrpc-peer.js';

interface Received {
  method: string;
  authorization: string | undefined;
}

/** An authorization whose recovery from a refusal waits for the test: the person at the browser. */
function slowLogin() {
  let token: string | undefined;
  const login = deferred<boolean>();
  /** Resolves at the first refusal: the transport is then waiting for the person. */
  const asked = deferred<number>();
  const authorization: HttpAuthorization = {
    authorization: () => (token ? `Bearer ${token}` : undefined),
    refused: async (refusal) => {
      asked.resolve(refusal.status);
      return login.promise;
    },
  };
  /** The person logged in: the token is there before any request that follows. */
  const done = () => {
    token = 'good';
    login.resolve(true);
  };
  return { authorization, login, done, refused: asked.promise };
}

describe('HTTP client transport: held while the authorization works', () => {
  let server: http.Server;
  let url: string;
  const received: Received[] = [];

  before(async () => {
    // Answers JSON-RPC requests with an empty result, and refuses any without the good token.
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method: string };
        received.push({ method: message.method, authorization: req.headers.authorization });
        if (req.headers.authorization !== 'Bearer good') {
          res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function connected(authorization: HttpAuthorization) {
    const transport = new HttpClientTransport(url, { authorization });
    const holds: boolean[] = [];
    const connection = new Connection(transport);
    // The connection's own handlers, with each hold written down on the way.
    const start = transport.start.bind(transport);
    transport.start = (handlers) =>
      start({
        ...handlers,
        held(holding) {
          holds.push(holding);
          handlers.held?.call(this, holding);
        },
      });
    connection.start();
    return { connection, transport, holds };
  }

  it('holds from the refusal until the login is done, then sends the request with the new token', async () => {
    received.length = 0;
    const { authorization, done, refused } = slowLogin();
    const { connection, holds } = connected(authorization);
    const answer = connection.request('tools/list', {}, { timeout: 60_000 });
    await refused;
    assert.deepEqual(holds, [true], 'not held while the login was awaited');
    done();
    assert.deepEqual(await answer, {});
    assert.deepEqual(holds, [true, false]);
    assert.deepEqual(received, [
      { method: 'tools/list', authorization: undefined },
      { method: 'tools/list', authorization: 'Bearer good' },
    ]);
    await connection.close();
  });

  it('lets go when the login fails, and the connection closes with the reason', async () => {
    received.length = 0;
    const { authorization, login, refused } = slowLogin();
    const { connection, holds } = connected(authorization);
    const answer = connection.request('tools/list', {}, { timeout: 60_000 });
    answer.catch(() => {});
    await refused;
    login.reject(new Error('the person closed the browser'));
    await assert.rejects(answer, /the person closed the browser/);
    assert.deepEqual(holds, [true, false]);
  });

  it('does not send a standalone request its sender gave up on during the login', async (t) => {
    received.length = 0;
    const { authorization, done, refused } = slowLogin();
    const { connection, transport } = connected(authorization);
    // Every POST the transport makes, seen as it is made (the server may see a request late or never).
    const posts: string[] = [];
    const requester = (transport as unknown as { requester: HttpRequester }).requester;
    const request = requester.request.bind(requester);
    t.mock.method(requester, 'request', (target: URL, options: HttpRequestOptions) => {
      posts.push(`${JSON.parse(options.body ?? '{}').method} ${options.headers?.Authorization ?? '-'}`);
      return request(target, options);
    });
    const controller = new AbortController();
    const call = connection.request(
      'tools/call',
      { name: 'transfer' },
      { signal: controller.signal, transport: { standalone: true }, cancellation: abortCancellation },
    );
    call.catch(() => {});
    await refused;
    controller.abort(new Error('the user pressed Ctrl-C'));
    await assert.rejects(call, /Ctrl-C|cancelled/);
    done();
    // The login's end reaches the transport in promise jobs: a later request's answer comes after them.
    assert.deepEqual(await connection.request('ping', undefined, { transport: { standalone: true } }), {});
    assert.deepEqual(posts, ['tools/call -', 'ping Bearer good']);
    await connection.close();
  });
});
