// DPoP (RFC 9449, SEP-1932) in the OAuth client, against a fake fetch (no sockets): where the
// authorization server offers it, the token request carries a proof, a DPoP token is presented with the
// DPoP scheme and a fresh proof per request (htm, htu without query, ath), the nonces of the authorization
// server and of the resource server are honoured, and a server without DPoP (or dpop: false) gets Bearer.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { calculateJwkThumbprint, decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import { OAuthClient } from '../../src/transport/http/auth/oauth-client.js';

const SERVER = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';
const TOKEN = `${ISSUER}/token`;

interface Post {
  form: URLSearchParams;
  dpop: string | null;
}

function setup(
  options: { dpopOffered?: boolean; dpop?: boolean; tokenAnswer?: (post: Post, n: number) => Response } = {},
) {
  const posts: Post[] = [];
  const documents: Record<string, unknown> = {
    'https://mcp.example.com/.well-known/oauth-protected-resource/mcp': {
      resource: SERVER,
      authorization_servers: [ISSUER],
    },
    [`${ISSUER}/.well-known/oauth-authorization-server`]: {
      issuer: ISSUER,
      token_endpoint: TOKEN,
      ...(options.dpopOffered === false ? {} : { dpop_signing_alg_values_supported: ['ES256'] }),
    },
  };
  const fetcher = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (init?.method === 'POST' && url === TOKEN) {
      const post = {
        form: new URLSearchParams(String(init.body)),
        dpop: new Headers(init.headers).get('dpop'),
      };
      posts.push(post);
      if (options.tokenAnswer) return options.tokenAnswer(post, posts.length);
      return Response.json({ access_token: 'at-1', token_type: post.dpop ? 'DPoP' : 'Bearer' });
    }
    const document = documents[url];
    return document === undefined ? new Response('', { status: 404 }) : Response.json(document);
  }) as typeof fetch;
  const oauth = new OAuthClient({
    server: SERVER,
    grant: 'client_credentials',
    clientId: 'machine',
    clientSecret: 'secret',
    fetch: fetcher,
    ...(options.dpop !== undefined ? { dpop: options.dpop } : {}),
  });
  return { oauth, posts };
}

const refusal = { status: 401, wwwAuthenticate: 'Bearer' };

/** A proof verified with the key in its own header: its header and claims. */
async function verifyProof(proof: string) {
  const header = decodeProtectedHeader(proof);
  const { payload } = await jwtVerify(proof, header.jwk as JWK, { typ: 'dpop+jwt', algorithms: ['ES256'] });
  return { header, payload };
}

describe('DPoP', () => {
  it('asks for a DPoP token with a proof, and presents it with the DPoP scheme and a fresh proof each time', async () => {
    const { oauth, posts } = setup();
    assert.equal(await oauth.refused(refusal), true);
    assert.equal(await oauth.authorization(), 'DPoP at-1');

    const tokenProof = await verifyProof(posts[0]!.dpop!);
    assert.equal((tokenProof.header.jwk as JWK | undefined)?.d, undefined, 'no private key in the header');
    assert.equal(tokenProof.payload.htm, 'POST');
    assert.equal(tokenProof.payload.htu, TOKEN);
    assert.equal(tokenProof.payload.ath, undefined);

    const first = await verifyProof((await oauth.proof('POST', `${SERVER}?page=2#top`))!);
    const second = await verifyProof((await oauth.proof('GET', SERVER))!);
    assert.equal(first.payload.htu, SERVER, 'no query or fragment in htu');
    assert.equal(first.payload.ath, createHash('sha256').update('at-1').digest('base64url'));
    assert.equal(second.payload.htm, 'GET');
    assert.notEqual(first.payload.jti, second.payload.jti);
    const thumbprint = (h: typeof first.header) => calculateJwkThumbprint(h.jwk as JWK);
    assert.equal(await thumbprint(first.header), await thumbprint(tokenProof.header), 'one key throughout');
  });

  it("retries the token request once with the authorization server's nonce", async () => {
    const { oauth, posts } = setup({
      tokenAnswer: (_post, n) =>
        n === 1
          ? Response.json(
              { error: 'use_dpop_nonce' },
              { status: 400, headers: { 'DPoP-Nonce': 'as-nonce-1' } },
            )
          : Response.json({ access_token: 'at-2', token_type: 'DPoP' }),
    });
    assert.equal(await oauth.refused(refusal), true);
    assert.equal(await oauth.authorization(), 'DPoP at-2');
    assert.equal(posts.length, 2);
    assert.equal((await verifyProof(posts[0]!.dpop!)).payload.nonce, undefined);
    assert.equal((await verifyProof(posts[1]!.dpop!)).payload.nonce, 'as-nonce-1');
  });

  it("sends the same token again with the resource server's nonce, asking for no new token", async () => {
    const { oauth, posts } = setup();
    await oauth.refused(refusal);
    const again = await oauth.refused({
      status: 401,
      wwwAuthenticate: 'DPoP error="use_dpop_nonce", resource_metadata="x"',
      dpopNonce: 'rs-nonce-1',
    });
    assert.equal(again, true);
    assert.equal(posts.length, 1);
    assert.equal((await verifyProof((await oauth.proof('POST', SERVER))!)).payload.nonce, 'rs-nonce-1');
  });

  it('uses Bearer where the authorization server offers no DPoP, or with dpop: false', async () => {
    for (const options of [{ dpopOffered: false }, { dpop: false }]) {
      const { oauth, posts } = setup(options);
      await oauth.refused(refusal);
      assert.equal(await oauth.authorization(), 'Bearer at-1');
      assert.equal(posts[0]!.dpop, null);
      assert.equal(oauth.proof('POST', SERVER), undefined);
    }
  });
});
