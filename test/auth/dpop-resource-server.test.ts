// mcpwire's resource server and DPoP (RFC 9449 §7): oidc-provider on 127.0.0.1 offers DPoP, so mcpwire's
// client gets tokens bound to its key (`cnf.jkt`) and presents them as `DPoP <token>` with a proof per
// request; the server checks the proof and the binding. Before, it took Bearer only: the client could not
// use such a server at all, and a DPoP-bound token that leaked was accepted as a bearer token. Each
// refusal below is a 401 with a DPoP challenge (or a Bearer one, for the bearer presentation).

import assert from 'node:assert/strict';
import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { createHttpHandler } from '../../src/server/http.js';
import { McpServer } from '../../src/server/server.js';
import { parseBearerChallenge, parseChallenge } from '../../src/transport/http/auth/challenge.js';
import { dpopProof } from '../../src/transport/http/auth/dpop.js';
import { OAuthClient } from '../../src/transport/http/auth/oauth-client.js';
import { type AuthRecord, InMemoryTokenStore } from '../../src/transport/http/auth/token-store.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { type AuthorizationServer, startAuthorizationServer } from '../support/authorization-server.js';
import { initializeRequest, POST_HEADERS } from '../support/http-helpers.js';

describe('authorization: mcpwire as a resource server for DPoP-bound tokens', { timeout: 60_000 }, () => {
  let as: AuthorizationServer;
  let listener: HttpListener;
  let record: AuthRecord;

  before(async () => {
    as = await startAuthorizationServer({ scopes: ['mcp:read'], dpop: true });
    const server = new McpServer({ name: 'dpop', version: '1.0.0' });
    server.tool({ name: 'whoami', description: 'Says who called' }, async (_args, ctx) => ({
      content: [{ type: 'text', text: ctx.auth?.subject ?? '' }],
    }));
    listener = await server.serveHttp({ authorization: { issuer: as.issuer, requiredScopes: ['mcp:read'] } });
  });

  after(async () => {
    await listener?.close();
    await as?.close();
  });

  it('lists the proof algorithms in its metadata', async () => {
    const origin = new URL(listener.url).origin;
    const document = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      dpop_signing_alg_values_supported?: string[];
    };
    assert.ok(document.dpop_signing_alg_values_supported?.includes('ES256'));
  });

  it("serves mcpwire's client, whose token oidc-provider bound to its key", async () => {
    const store = new InMemoryTokenStore();
    const authorization = new OAuthClient({
      server: listener.url,
      store,
      redirectUri: 'http://127.0.0.1:53682/callback',
      authorize: (url) => as.completeLogin(url),
    });
    const client = new McpClient({ name: 'dpop-tests', version: '1.0.0' });
    await client.connect(new HttpClientTransport(listener.url, { authorization }));
    const result = await client.callTool('whoami', {});
    assert.equal((result.content[0] as { text: string }).text, 'alice');
    await client.close();
    record = (await store.load(listener.url))!;
    assert.equal(record.tokens?.token_type?.toLowerCase(), 'dpop');
    const claims = JSON.parse(
      Buffer.from(record.tokens!.access_token.split('.')[1]!, 'base64url').toString(),
    );
    assert.equal(typeof claims.cnf?.jkt, 'string', 'the token is bound to a key');
  });

  const post = (headers: Record<string, string>) =>
    fetch(listener.url, {
      method: 'POST',
      headers: { ...POST_HEADERS, Accept: 'application/json', ...headers },
      body: JSON.stringify(initializeRequest()),
    });
  const proof = (options: { key?: JsonWebKey; method?: string; url?: string; token?: string } = {}) =>
    dpopProof(options.key ?? record.dpop_jwk!, {
      method: options.method ?? 'POST',
      url: options.url ?? listener.url,
      accessToken: options.token ?? record.tokens!.access_token,
    });
  const dpop = () => `DPoP ${record.tokens!.access_token}`;

  it('accepts the token with a proof made for the request, and a query string does not change htu', async () => {
    const accepted = await post({ Authorization: dpop(), DPoP: await proof({ url: `${listener.url}?x=1` }) });
    assert.equal(accepted.status, 200);
    await accepted.body?.cancel();
  });

  it('refuses the DPoP-bound token presented as a bearer token', async () => {
    const response = await post({ Authorization: `Bearer ${record.tokens!.access_token}` });
    assert.equal(response.status, 401);
    const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
    assert.equal(challenge?.error, 'invalid_token');
    assert.match(challenge?.error_description ?? '', /bound to a key/);
    await response.body?.cancel();
  });

  const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const refusals: Array<[string, () => Promise<Record<string, string>>, string, RegExp]> = [
    ['no proof', async () => ({ Authorization: dpop() }), 'invalid_dpop_proof', /exactly one DPoP proof/],
    [
      'a proof for another method',
      async () => ({ Authorization: dpop(), DPoP: await proof({ method: 'GET' }) }),
      'invalid_dpop_proof',
      /another method/,
    ],
    [
      'a proof for another URL',
      async () => ({ Authorization: dpop(), DPoP: await proof({ url: 'http://127.0.0.1:1/mcp' }) }),
      'invalid_dpop_proof',
      /another URL/,
    ],
    [
      'a proof for another token (ath)',
      async () => ({ Authorization: dpop(), DPoP: await proof({ token: 'another-token' }) }),
      'invalid_dpop_proof',
      /another access token/,
    ],
    [
      'a proof signed with another key than the token is bound to',
      async () => ({ Authorization: dpop(), DPoP: await proof({ key: otherKey }) }),
      'invalid_token',
      /another key/,
    ],
    [
      'a proof that is not a JWT',
      async () => ({ Authorization: dpop(), DPoP: 'nonsense' }),
      'invalid_dpop_proof',
      /well-formed/,
    ],
  ];
  for (const [name, headers, error, message] of refusals) {
    it(`refuses ${name}: 401 ${error}, in a DPoP challenge`, async () => {
      const response = await post(await headers());
      assert.equal(response.status, 401);
      const challenge = parseChallenge(response.headers.get('www-authenticate'), 'DPoP');
      assert.equal(challenge?.error, error);
      assert.match(challenge?.error_description ?? '', message);
      assert.match(challenge?.algs ?? '', /ES256/);
      assert.ok(challenge?.resource_metadata);
      await response.body?.cancel();
    });
  }

  it('takes htu from the request path only: an absolute-form request target names no other URL', async () => {
    // A handler mounted in a server of one's own sees the request target as sent (listenHttp's router
    // answers 404 to anything but its path, so this goes through createHttpHandler).
    const own = new McpServer({ name: 'mounted', version: '1.0.0' });
    const handler = createHttpHandler((transport) => own.connect(transport), {
      authorization: { issuer: as.issuer, resource: listener.url, requiredScopes: ['mcp:read'] },
    });
    const mounted = createServer((request, response) => void handler(request, response));
    await new Promise<void>((resolve) => mounted.listen(0, '127.0.0.1', resolve));
    try {
      const elsewhere = 'http://127.0.0.1:1/mcp';
      const headers = {
        ...POST_HEADERS,
        Accept: 'application/json',
        Authorization: dpop(),
        DPoP: await proof({ url: elsewhere }),
      };
      const { port } = mounted.address() as AddressInfo;
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port, method: 'POST', path: elsewhere, headers },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end(JSON.stringify(initializeRequest()));
      });
      // Bug: the request target was taken whole, so a proof made for another server's URL passed.
      assert.equal(status, 401);
    } finally {
      handler.closeAll();
      mounted.closeAllConnections();
      await new Promise((resolve) => mounted.close(resolve));
    }
  });

  it('refuses a proof used a second time (jti)', async () => {
    const once = await proof();
    const first = await post({ Authorization: dpop(), DPoP: once });
    assert.equal(first.status, 200);
    await first.body?.cancel();
    const again = await post({ Authorization: dpop(), DPoP: once });
    assert.equal(again.status, 401);
    const challenge = parseChallenge(again.headers.get('www-authenticate'), 'DPoP');
    assert.match(challenge?.error_description ?? '', /used before/);
    await again.body?.cancel();
  });
});
