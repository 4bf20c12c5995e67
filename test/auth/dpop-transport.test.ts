// The HTTP client transport with a DPoP-bound token (RFC 9449): every request that carries the token (the
// POSTs, the GET stream, the DELETE at the end) carries a proof of its own made for its method, and a
// refusal hands the server's DPoP-Nonce to the authorization, which asks for the request to be sent again.
// A real mcpwire endpoint behind a Node server that records the headers and asks for a nonce once.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { createHttpHandler } from '../../src/server/http.js';
import type { AuthRefusal, HttpAuthorization } from '../../src/transport/http/auth/oauth-client.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpHandler } from '../../src/transport/http/server-handler.js';
import { testServer } from '../support/http-helpers.js';

describe('the HTTP client transport with a DPoP-bound token', { timeout: 10_000 }, () => {
  let http: Server;
  let handler: HttpHandler;
  let url: string;
  const seen: Array<{ method: string; authorization?: string; dpop?: string }> = [];

  before(async () => {
    const { server } = testServer();
    handler = createHttpHandler((transport) => server.connect(transport));
    let nonceAsked = false;
    http = createServer((request, response) => {
      const dpop = request.headers.dpop as string | undefined;
      seen.push({ method: request.method!, authorization: request.headers.authorization, dpop });
      if (!nonceAsked) {
        nonceAsked = true;
        response
          .writeHead(401, { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': 'n-1' })
          .end('{"error":"use_dpop_nonce"}');
        return;
      }
      void handler(request, response);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });

  after(async () => {
    handler?.closeAll();
    http?.closeAllConnections();
    await new Promise<void>((resolve) => http?.close(() => resolve()) ?? resolve());
  });

  it('sends a fresh proof for each request, made for its method, and retries a refusal with the nonce', async () => {
    const refusals: AuthRefusal[] = [];
    let proofs = 0;
    let nonce: string | undefined;
    const authorization: HttpAuthorization = {
      authorization: () => 'DPoP bound-token',
      refused: async (refusal) => {
        refusals.push(refusal);
        nonce = refusal.dpopNonce ?? undefined;
        return true;
      },
      proof: async (method, target) =>
        `${method} ${new URL(target).pathname} #${++proofs}${nonce ? ` ${nonce}` : ''}`,
    };
    // The handshake era: a session, so a GET stream and a DELETE at the end besides the POSTs.
    const client = new McpClient({ name: 'dpop-test', version: '1.0.0', era: 'handshake' });
    await client.connect(new HttpClientTransport(url, { authorization }));
    await client.listTools();
    await client.close();

    assert.deepEqual(
      refusals.map((r) => r.dpopNonce),
      ['n-1'],
    );
    assert.ok(seen.every((s) => s.authorization === 'DPoP bound-token'));
    const proofsSeen = seen.map((s) => s.dpop ?? '');
    assert.equal(new Set(proofsSeen).size, seen.length, `a new proof each time: ${proofsSeen.join(', ')}`);
    for (const s of seen) assert.match(s.dpop ?? '', new RegExp(`^${s.method} /mcp #\\d+`));
    assert.ok(
      seen.slice(1).every((s) => s.dpop?.endsWith(' n-1')),
      'the nonce from the refusal on',
    );
    const methods = new Set(seen.map((s) => s.method));
    assert.deepEqual([...methods].sort(), ['DELETE', 'GET', 'POST'], JSON.stringify(seen));
  });
});
