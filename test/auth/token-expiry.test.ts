// Tokens that really expire (issue #17: "tokens expire and refresh"): oidc-provider issues access tokens
// for 3 s, mcpwire's server checks them with no clock skew, and the client's clock stands still so that
// it sends the token rather than refreshing it ahead of time. Once the token's `exp` has
// passed, the server refuses it as expired (401 invalid_token), and the client refreshes it at
// oidc-provider, once, with no second login. The wait is for the token's own expiry, not for another
// party: the test waits until the clock is past the `exp` the token carries.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { McpClient } from '../../src/client/client.js';
import { McpServer } from '../../src/server/server.js';
import { parseBearerChallenge } from '../../src/transport/http/auth/challenge.js';
import { jwtVerifier } from '../../src/transport/http/auth/jwt-verifier.js';
import { OAuthClient } from '../../src/transport/http/auth/oauth-client.js';
import { InMemoryTokenStore } from '../../src/transport/http/auth/token-store.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { type AuthorizationServer, startAuthorizationServer } from '../support/authorization-server.js';
import { freePort } from '../support/fleet-harness.js';
import { initializeRequest, POST_HEADERS } from '../support/http-helpers.js';

const TTL = 3;

/** Waits until the clock is past the token's own `exp` (a short-lived token, issued for this test). */
async function untilExpired(token: string): Promise<void> {
  const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
  assert.ok(exp - Date.now() / 1000 <= TTL, 'oidc-provider issued a short-lived token');
  await delay(Math.max(0, exp * 1000 - Date.now()) + 1_100);
}

describe('authorization: access tokens that expire at the resource server', { timeout: 60_000 }, () => {
  let as: AuthorizationServer;
  let listener: HttpListener;

  before(async () => {
    as = await startAuthorizationServer({ scopes: ['mcp:read'], accessTokenTTL: TTL });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const server = new McpServer({ name: 'expiring', version: '1.0.0' });
    server.tool({ name: 'whoami', description: 'Says who called' }, async (_args, ctx) => ({
      content: [{ type: 'text', text: ctx.auth?.subject ?? '' }],
    }));
    listener = await server.serveHttp({
      port,
      authorization: {
        issuer: as.issuer,
        requiredScopes: ['mcp:read'],
        verifier: jwtVerifier({ issuer: as.issuer, audience: url, clockTolerance: 0 }),
      },
    });
    assert.equal(listener.url, url);
  });

  after(async () => {
    await listener?.close();
    await as?.close();
  });

  it('refuses the expired token (401 invalid_token), and the client refreshes it each time, with no login', async () => {
    const store = new InMemoryTokenStore();
    const frozen = Date.now();
    let logins = 0;
    const authorization = new OAuthClient({
      server: listener.url,
      store,
      redirectUri: 'http://127.0.0.1:53682/callback',
      authorize: async (url) => {
        logins++;
        return as.completeLogin(url);
      },
      refreshSkew: 0,
      // The client's clock stands still: it never refreshes ahead of time, so every refresh here is the
      // answer to a 401.
      now: () => frozen,
    });
    const client = new McpClient({ name: 'expiry-tests', version: '1.0.0' });
    await client.connect(new HttpClientTransport(listener.url, { authorization }));
    const call = async () => ((await client.callTool('whoami', {})).content[0] as { text: string }).text;
    assert.equal(await call(), 'alice');
    const first = (await store.load(listener.url))!.tokens!;
    assert.ok(first.refresh_token);

    await untilExpired(first.access_token);
    const raw = await fetch(listener.url, {
      method: 'POST',
      headers: { ...POST_HEADERS, Authorization: `Bearer ${first.access_token}` },
      body: JSON.stringify(initializeRequest()),
    });
    assert.equal(raw.status, 401);
    const challenge = parseBearerChallenge(raw.headers.get('www-authenticate'));
    assert.equal(challenge?.error, 'invalid_token');
    assert.match(challenge?.error_description ?? '', /expired/);
    await raw.body?.cancel();

    const posts = () => as.requests().filter((r) => r === 'POST /token').length;
    const before = posts();
    assert.equal(await call(), 'alice');
    assert.equal(posts() - before, 1, 'one refresh');
    assert.equal(logins, 1, 'no second login');
    const second = (await store.load(listener.url))!.tokens!;
    assert.notEqual(second.access_token, first.access_token);

    // The refreshed token expires in its turn: refreshed again, still with no login.
    await untilExpired(second.access_token);
    assert.equal(await call(), 'alice');
    // Bug: a token that a refresh on a 401 gave, refused later, was taken for a sign that the server had
    // moved to another authorization server, and the client went to log in again.
    assert.equal(logins, 1, 'no login for the second expiry either');
    assert.equal(posts() - before, 2, 'a second refresh');
    await client.close();
  });
});
