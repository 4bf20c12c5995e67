// The token verifiers beyond the one-issuer JWT case: several trusted issuers (each token checked
// against its own issuer's keys), and opaque tokens by introspection (RFC 7662): what an answer must say
// for the token to be accepted, and that answers are cached by a hash of the token, not asked for each
// request.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { resourceServer } from '../../src/server/authorization.js';
import { introspectionVerifier } from '../../src/transport/http/auth/introspection-verifier.js';
import { startTokenIssuer, type TokenIssuer } from '../support/token-issuer.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';

describe('token verifiers', { timeout: 20_000 }, () => {
  let a: TokenIssuer;
  let b: TokenIssuer;
  let c: TokenIssuer;
  let introspection: Server;
  let endpoint: string;
  const asked: string[] = [];

  before(async () => {
    [a, b, c] = await Promise.all([startTokenIssuer(), startTokenIssuer(), startTokenIssuer()]);
    // The introspection endpoint: it knows three opaque tokens, and only this resource server's credentials.
    const answers: Record<string, Record<string, unknown>> = {
      'opaque-good': {
        active: true,
        aud: RESOURCE,
        sub: 'dora',
        scope: 'mcp:read',
        client_id: 'c9',
        iss: 'https://as.example',
      },
      'opaque-elsewhere': { active: true, aud: 'http://127.0.0.1:1/other', sub: 'dora' },
      'opaque-revoked': { active: false },
    };
    introspection = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        const token = new URLSearchParams(body).get('token') ?? '';
        asked.push(token);
        const expected = `Basic ${Buffer.from('rs:secret').toString('base64')}`;
        if (request.headers.authorization !== expected) {
          response.writeHead(401).end();
          return;
        }
        response
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify(answers[token] ?? { active: false }));
      });
    });
    await new Promise<void>((resolve) => introspection.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(introspection.address() as AddressInfo).port}/introspect`;
  });

  after(async () => {
    await Promise.all([a?.close(), b?.close(), c?.close()]);
    introspection?.close();
  });

  it('trusts several issuers, each token checked against its own issuer, and refuses any other', async () => {
    const server = resourceServer({ issuer: [a.issuer, b.issuer], resource: RESOURCE });
    for (const issuer of [a, b]) {
      const verdict = await server.authenticate(
        `Bearer ${await issuer.mint({ audience: RESOURCE, subject: issuer.issuer })}`,
      );
      assert.ok('auth' in verdict, JSON.stringify(verdict));
      assert.equal(verdict.auth.issuer, issuer.issuer);
    }
    const foreign = await server.authenticate(`Bearer ${await c.mint({ audience: RESOURCE })}`);
    assert.ok('refusal' in foreign);
    assert.equal(foreign.refusal.status, 401);
    assert.match(foreign.refusal.description, /issuer this server does not trust/);
    // A token that claims issuer A but is signed by C's key is checked against A's keys, and fails.
    const forged = await server.authenticate(
      `Bearer ${await c.mint({ audience: RESOURCE, issuer: a.issuer })}`,
    );
    assert.ok('refusal' in forged);
    assert.match(forged.refusal.description, /signature|unknown kid/);
  });

  it('accepts an active opaque token for this resource by introspection, and caches the answer', async () => {
    const verify = introspectionVerifier({
      endpoint,
      clientId: 'rs',
      clientSecret: 'secret',
      audience: RESOURCE,
    });
    asked.length = 0;
    const auth = await verify('opaque-good');
    assert.equal(auth.subject, 'dora');
    assert.deepEqual(auth.scopes, ['mcp:read']);
    assert.equal(auth.clientId, 'c9');
    await verify('opaque-good');
    assert.deepEqual(asked, ['opaque-good'], 'asked once for two uses');
  });

  it('refuses an inactive token, or one for another resource', async () => {
    const verify = introspectionVerifier({
      endpoint,
      clientId: 'rs',
      clientSecret: 'secret',
      audience: RESOURCE,
      cacheMs: 0,
    });
    await assert.rejects(verify('opaque-revoked'), /not active/);
    await assert.rejects(verify('opaque-elsewhere'), /another resource/);
  });

  it('says the token could not be checked (503, not 401) when introspection itself fails', async () => {
    const server = resourceServer({
      issuer: 'https://as.example',
      resource: RESOURCE,
      verifier: introspectionVerifier({
        endpoint,
        clientId: 'rs',
        clientSecret: 'wrong',
        audience: RESOURCE,
      }),
    });
    const verdict = await server.authenticate('Bearer opaque-good');
    assert.ok('refusal' in verdict);
    assert.equal(verdict.refusal.status, 503);
    assert.match(verdict.refusal.description, /could not be checked now/);
  });
});
