// The resource server's token verifiers (JWT, and introspection at the end) when what it depends on fails, and against a flood of bad tokens: a
// token that is not a JWT is refused without asking the issuer anything; an issuer whose metadata or keys
// cannot be had makes the verdict 503 (try again), not 401 (log in again), and is asked again only after a
// pause, not once per token; an issuer that never answers is given up on in bounded time.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { introspectionVerifier } from '../../src/transport/http/auth/introspection-verifier.js';
import { jwtVerifier } from '../../src/transport/http/auth/jwt-verifier.js';
import { ResourceServer } from '../../src/transport/http/auth/resource-server.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';

/** An issuer on a port of its own: `answer` decides each request; every request is counted. */
async function issuer(answer: (request: IncomingMessage) => { status: number; body?: unknown } | 'hang') {
  const seen: string[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(request.url ?? '');
    const reply = answer(request);
    if (reply === 'hang') return;
    response.writeHead(reply.status, { 'content-type': 'application/json' });
    response.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { url, seen };
}

const servers: Server[] = [];
after(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

async function token(iss: string): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT({ scope: 'mcp' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' })
    .setIssuer(iss)
    .setAudience(RESOURCE)
    .setExpirationTime('5m')
    .sign(privateKey);
}

function resourceServerOf(verifier: ReturnType<typeof jwtVerifier>, iss: string) {
  return new ResourceServer({ resource: RESOURCE, authorizationServers: [iss], verifier });
}

describe('jwtVerifier when the issuer fails', () => {
  it('refuses a token that is not a JWT without asking the issuer', async () => {
    const as = await issuer(() => ({ status: 500 }));
    const server = resourceServerOf(jwtVerifier({ issuer: as.url, audience: RESOURCE }), as.url);
    for (const bad of ['x', 'a.b.c', 'Zm9v.YmFy.YmF6']) {
      const verdict = await server.authenticate(`Bearer ${bad}`);
      assert.ok('refusal' in verdict);
      assert.equal(verdict.refusal.status, 401, verdict.refusal.description);
      assert.match(verdict.refusal.description, /not a well-formed JWT/);
    }
    assert.deepEqual(as.seen, []);
  });

  it('says 503 while the metadata cannot be had, and asks for it again only after a pause', async () => {
    const as = await issuer(() => ({ status: 500 }));
    const server = resourceServerOf(jwtVerifier({ issuer: as.url, audience: RESOURCE }), as.url);
    const jwt = await token(as.url);
    for (let i = 0; i < 20; i++) {
      const verdict = await server.authenticate(`Bearer ${jwt}`);
      assert.ok('refusal' in verdict);
      assert.equal(verdict.refusal.status, 503, verdict.refusal.description);
    }
    assert.equal(as.seen.length, 1, `the issuer was asked ${as.seen.length} times: ${as.seen.join(', ')}`);
  });

  it('says 503, not 401, while the key set cannot be had, and asks for it again only after a pause', async () => {
    const as = await issuer((request) => (request.url === '/jwks' ? { status: 502 } : { status: 404 }));
    const verifier = jwtVerifier({ issuer: as.url, audience: RESOURCE, jwksUri: `${as.url}/jwks` });
    const server = resourceServerOf(verifier, as.url);
    const jwt = await token(as.url);
    for (let i = 0; i < 20; i++) {
      const verdict = await server.authenticate(`Bearer ${jwt}`);
      assert.ok('refusal' in verdict);
      assert.equal(verdict.refusal.status, 503, verdict.refusal.description);
      assert.match(verdict.refusal.description, /could not be checked now/);
    }
    assert.equal(as.seen.length, 1, `the key set was asked for ${as.seen.length} times`);
  });

  it('gives up on an issuer that never answers, with 503', async () => {
    const as = await issuer(() => 'hang');
    const server = resourceServerOf(
      jwtVerifier({ issuer: as.url, audience: RESOURCE, timeout: 300 }),
      as.url,
    );
    const verdict = await server.authenticate(`Bearer ${await token(as.url)}`);
    assert.ok('refusal' in verdict);
    assert.equal(verdict.refusal.status, 503);
    assert.match(verdict.refusal.description, /did not answer within 300 ms/);
  });

  it('still verifies once the issuer is back (the pause ends)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    let up = false;
    const as = await issuer((request) => {
      if (!up) return { status: 503 };
      if (request.url === '/jwks')
        return { status: 200, body: { keys: [{ ...jwksKey, kid: 'k1', alg: 'RS256' }] } };
      return { status: 404 };
    });
    const jwksKey = await exportJWK(publicKey);
    const verifier = jwtVerifier({
      issuer: as.url,
      audience: RESOURCE,
      jwksUri: `${as.url}/jwks`,
      retryAfter: 0,
    });
    const jwt = await new SignJWT({ scope: 'mcp' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(as.url)
      .setAudience(RESOURCE)
      .setExpirationTime('5m')
      .sign(privateKey);
    await assert.rejects(verifier(jwt));
    up = true;
    const auth = await verifier(jwt);
    assert.deepEqual(auth.scopes, ['mcp']);
  });
});

describe('introspectionVerifier when its endpoint fails', () => {
  const options = (url: string) => ({
    endpoint: `${url}/introspect`,
    clientId: 'rs',
    clientSecret: 'secret',
    audience: RESOURCE,
  });

  it('says 503 for a flood of tokens while the endpoint fails, asking it again only after a pause', async () => {
    const as = await issuer(() => ({ status: 500 }));
    const server = resourceServerOf(introspectionVerifier(options(as.url)), as.url);
    for (let i = 0; i < 20; i++) {
      const verdict = await server.authenticate(`Bearer opaque-${i}`);
      assert.ok('refusal' in verdict);
      assert.equal(verdict.refusal.status, 503, verdict.refusal.description);
    }
    assert.equal(as.seen.length, 1, `the endpoint was asked ${as.seen.length} times`);
  });

  it('gives up on an endpoint that never answers, with 503', async () => {
    const as = await issuer(() => 'hang');
    const server = resourceServerOf(introspectionVerifier({ ...options(as.url), timeout: 300 }), as.url);
    const verdict = await server.authenticate('Bearer opaque');
    assert.ok('refusal' in verdict);
    assert.equal(verdict.refusal.status, 503);
    assert.match(verdict.refusal.description, /did not answer within 300 ms/);
  });
});
