// The OAuth client's token requests that need no person, against a fake fetch (no sockets): private_key_jwt
// (the assertion's claims and header checked with jose against the public key, no client_id or secret
// beside it) and cross-app access (the ID token exchanged at the IdP for an ID-JAG with the parameters
// SEP-990 names, the ID-JAG presented as a jwt-bearer grant, a fresh ID token for the next access token,
// and each refusal said in a sentence) and workload identity federation (the platform's JWT as the grant,
// with no registration and no client id, and no retry after a refusal).

import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { readClientKey } from '../../src/transport/http/auth/client-authentication.js';
import { AuthorizationError, OAuthClient } from '../../src/transport/http/auth/oauth-client.js';
import { InMemoryTokenStore } from '../../src/transport/http/auth/token-store.js';

const SERVER = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';
const IDP = 'https://idp.example.com';

interface Seen {
  url: string;
  form: URLSearchParams;
  authorization: string | null;
}

type Handler = (seen: Seen) => unknown;

/** A fetch that answers GETs from documents and POSTs (forms) from handlers, and records every POST. */
function fakeFetch(documents: Record<string, unknown>, handlers: Record<string, Handler>, posts: Seen[]) {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if ((init?.method ?? 'GET') === 'POST') {
      const headers = new Headers(init?.headers);
      const seen = {
        url,
        form: new URLSearchParams(String(init?.body)),
        authorization: headers.get('authorization'),
      };
      posts.push(seen);
      const handler = handlers[url];
      if (!handler) return new Response('not found', { status: 404 });
      const answer = handler(seen);
      return answer instanceof Response ? answer : Response.json(answer);
    }
    const document = documents[url];
    return document === undefined ? new Response('not found', { status: 404 }) : Response.json(document);
  }) as typeof fetch;
}

const documents = {
  [`https://mcp.example.com/.well-known/oauth-protected-resource/mcp`]: {
    resource: SERVER,
    authorization_servers: [ISSUER],
    scopes_supported: ['mcp:read'],
  },
  [`${ISSUER}/.well-known/oauth-authorization-server`]: {
    issuer: ISSUER,
    token_endpoint: `${ISSUER}/token`,
    grant_types_supported: ['client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
    token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic'],
    token_endpoint_auth_signing_alg_values_supported: ['PS256', 'ES256', 'EdDSA'],
  },
  [`${IDP}/.well-known/oauth-authorization-server`]: { issuer: IDP, token_endpoint: `${IDP}/oauth2/token` },
};

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const refusal = { status: 401, wwwAuthenticate: 'Bearer' };

describe('private_key_jwt client authentication', () => {
  async function machineToken(privateKey: KeyObject, options: { keyId?: string } = {}) {
    const posts: Seen[] = [];
    const oauth = new OAuthClient({
      server: SERVER,
      grant: 'client_credentials',
      clientId: 'machine-7',
      clientKey: { privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, ...options },
      fetch: fakeFetch(
        documents,
        { [`${ISSUER}/token`]: () => ({ access_token: 'at-1', expires_in: 300 }) },
        posts,
      ),
    });
    assert.equal(await oauth.refused(refusal), true);
    assert.equal(await oauth.authorization(), 'Bearer at-1');
    assert.equal(posts.length, 1);
    return posts[0]!;
  }

  it('signs an assertion with iss and sub the client id, aud the issuer, a jti and a one-minute life', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const post = await machineToken(privateKey, { keyId: 'key-1' });
    assert.equal(post.form.get('grant_type'), 'client_credentials');
    assert.equal(post.form.get('resource'), SERVER);
    assert.equal(
      post.form.get('client_assertion_type'),
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
    assert.equal(post.form.get('client_id'), null, 'the assertion names the client');
    assert.equal(post.form.get('client_secret'), null);
    assert.equal(post.authorization, null);
    const assertion = post.form.get('client_assertion')!;
    assert.deepEqual(decodeProtectedHeader(assertion), { alg: 'ES256', kid: 'key-1' });
    const { payload } = await jwtVerify(assertion, publicKey, { issuer: 'machine-7', audience: ISSUER });
    assert.equal(payload.sub, 'machine-7');
    assert.equal(typeof payload.jti, 'string');
    assert.equal(payload.exp! - payload.iat!, 60);
  });

  it('signs with a fresh jti each time', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const a = (await machineToken(privateKey)).form.get('client_assertion')!;
    const b = (await machineToken(privateKey)).form.get('client_assertion')!;
    assert.equal(decodeProtectedHeader(a).alg, 'EdDSA');
    const jti = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()).jti;
    assert.notEqual(jti(a), jti(b));
  });

  it('takes the algorithm from the key, for RSA the one the server supports', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const pem = rsa.export({ format: 'pem', type: 'pkcs8' }) as string;
    assert.equal(readClientKey({ privateKey: pem }).algorithm, 'RS256');
    assert.equal(readClientKey({ privateKey: pem }, ['PS256', 'ES256']).algorithm, 'PS256');
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'jwk' });
    assert.equal(readClientKey({ privateKey: p384 }).algorithm, 'ES384');
    assert.equal(readClientKey({ privateKey: { ...p384, alg: 'ES384', kid: 'from-jwk' } }).keyId, 'from-jwk');
  });

  it('refuses what is no private key, in a sentence that does not quote it', () => {
    assert.throws(
      () => readClientKey({ privateKey: 'secret-looking text' }),
      (error: Error) =>
        error instanceof AuthorizationError &&
        /private key could not be read/.test(error.message) &&
        !error.message.includes('secret-looking'),
    );
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    assert.throws(
      () => readClientKey({ privateKey: publicKey.export({ format: 'pem', type: 'spki' }) as string }),
      AuthorizationError,
    );
  });
});

describe('cross-app access (SEP-990)', () => {
  function setup(idp: Handler, asToken: Handler = () => ({ access_token: 'mcp-token', expires_in: 60 })) {
    const posts: Seen[] = [];
    let idTokens = 0;
    const oauth = new OAuthClient({
      server: SERVER,
      clientId: 'mcp-client',
      clientSecret: 'mcp-secret',
      crossAppAccess: {
        idToken: async () => `id-token-${++idTokens}`,
        idpIssuer: IDP,
        idpClientId: 'idp-client',
        idpClientSecret: 'idp-secret',
      },
      fetch: fakeFetch(documents, { [`${IDP}/oauth2/token`]: idp, [`${ISSUER}/token`]: asToken }, posts),
    });
    return { oauth, posts, idTokens: () => idTokens };
  }

  const idJag = (seen: Seen) => ({
    access_token: `id-jag-for-${seen.form.get('subject_token')}`,
    issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
    token_type: 'N_A',
  });

  it('exchanges the ID token at the IdP for an ID-JAG and presents it as a jwt-bearer grant, with no browser', async () => {
    const { oauth, posts } = setup(idJag);
    assert.equal(await oauth.refused(refusal), true);
    assert.equal(await oauth.authorization(), 'Bearer mcp-token');
    const [exchange, grant] = posts;
    assert.equal(exchange?.url, `${IDP}/oauth2/token`);
    assert.deepEqual(Object.fromEntries(exchange!.form), {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: ISSUER,
      resource: SERVER,
      scope: 'mcp:read',
      subject_token: 'id-token-1',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    });
    assert.equal(exchange!.authorization, basic('idp-client', 'idp-secret'));
    assert.equal(grant?.url, `${ISSUER}/token`);
    assert.equal(grant!.form.get('grant_type'), 'urn:ietf:params:oauth:grant-type:jwt-bearer');
    assert.equal(grant!.form.get('assertion'), 'id-jag-for-id-token-1');
    assert.equal(grant!.form.get('resource'), SERVER);
    assert.equal(grant!.authorization, basic('mcp-client', 'mcp-secret'));
  });

  it('gets the next access token from a fresh ID token when the server refuses the one it has', async () => {
    const { oauth, posts, idTokens } = setup(idJag);
    await oauth.refused(refusal);
    await oauth.authorization();
    assert.equal(await oauth.refused(refusal), true);
    assert.equal(idTokens(), 2);
    assert.equal(posts.at(-1)!.form.get('assertion'), 'id-jag-for-id-token-2');
  });

  it('says why when the IdP refuses the exchange, and asks the authorization server nothing', async () => {
    const { oauth, posts } = setup(() =>
      Response.json({ error: 'invalid_grant', error_description: 'policy denies' }, { status: 400 }),
    );
    await assert.rejects(
      oauth.refused(refusal),
      /token endpoint of https:\/\/idp\.example\.com refused the urn:ietf:params:oauth:grant-type:token-exchange grant: invalid_grant \(policy denies\)/,
    );
    assert.deepEqual(
      posts.map((p) => p.url),
      [`${IDP}/oauth2/token`],
    );
  });

  it('refuses an answer of the IdP that is not an ID-JAG', async () => {
    const { oauth } = setup(() => ({
      access_token: 'an-access-token',
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    }));
    await assert.rejects(
      oauth.refused(refusal),
      /answered the token exchange with .*access_token, not an ID-JAG/,
    );
  });

  it('says so when the authorization server refuses the ID-JAG', async () => {
    const { oauth } = setup(idJag, () => Response.json({ error: 'invalid_grant' }, { status: 400 }));
    await assert.rejects(
      oauth.refused(refusal),
      /refused the urn:ietf:params:oauth:grant-type:jwt-bearer grant: invalid_grant/,
    );
  });
});

describe('workload identity federation (SEP-1933)', () => {
  it('presents the workload JWT as a jwt-bearer grant: no registration, no client id, a fresh JWT each time', async () => {
    const posts: Seen[] = [];
    let jwts = 0;
    const oauth = new OAuthClient({
      server: SERVER,
      workloadIdentity: { assertion: () => `workload-jwt-${++jwts}` },
      fetch: fakeFetch(documents, { [`${ISSUER}/token`]: () => ({ access_token: `at-${jwts}` }) }, posts),
    });
    assert.equal(await oauth.refused(refusal), true);
    assert.equal(await oauth.authorization(), 'Bearer at-1');
    assert.deepEqual(Object.fromEntries(posts[0]!.form), {
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: 'workload-jwt-1',
      resource: SERVER,
      scope: 'mcp:read',
    });
    assert.equal(posts[0]!.authorization, null);
    assert.equal(await oauth.refused(refusal), true);
    assert.equal(posts[1]!.form.get('assertion'), 'workload-jwt-2');
    assert.deepEqual(
      posts.map((p) => p.url),
      [`${ISSUER}/token`, `${ISSUER}/token`],
      'nothing registered',
    );
  });

  it('gives up on a refused grant with the reason, without retrying or trying another grant', async () => {
    const posts: Seen[] = [];
    const oauth = new OAuthClient({
      server: SERVER,
      workloadIdentity: { assertion: 'workload-jwt' },
      authorize: async () => {
        throw new Error('no browser for a workload');
      },
      fetch: fakeFetch(
        documents,
        { [`${ISSUER}/token`]: () => Response.json({ error: 'unauthorized_client' }, { status: 400 }) },
        posts,
      ),
    });
    await assert.rejects(
      oauth.refused(refusal),
      /refused the urn:ietf:params:oauth:grant-type:jwt-bearer grant: unauthorized_client/,
    );
    assert.equal(posts.length, 1);
  });
});

describe('the resource parameter', () => {
  it('is the resource identifier exactly as the metadata publishes it (no "/" added to one without a path)', async () => {
    const posts: Seen[] = [];
    const oauth = new OAuthClient({
      server: 'https://mcp.example.com',
      grant: 'client_credentials',
      clientId: 'machine',
      clientSecret: 'secret',
      fetch: fakeFetch(
        {
          'https://mcp.example.com/.well-known/oauth-protected-resource': {
            resource: 'https://mcp.example.com',
            authorization_servers: [ISSUER],
          },
          [`${ISSUER}/.well-known/oauth-authorization-server`]: {
            issuer: ISSUER,
            token_endpoint: `${ISSUER}/token`,
          },
        },
        { [`${ISSUER}/token`]: () => ({ access_token: 'at', expires_in: 1, refresh_token: 'rt' }) },
        posts,
      ),
      now: () => 0,
    });
    assert.equal(oauth.resource, 'https://mcp.example.com/');
    await oauth.refused(refusal);
    assert.equal(posts[0]!.form.get('resource'), 'https://mcp.example.com');
    // The refresh, once the token is about to expire, names it the same way.
    await oauth.authorization();
    assert.equal(posts[1]!.form.get('grant_type'), 'refresh_token');
    assert.equal(posts[1]!.form.get('resource'), 'https://mcp.example.com');
  });
});

describe('a refresh that does not reach the token endpoint', () => {
  it('keeps the refresh token, says why, and refreshes with it once the server is back', async () => {
    const posts: Seen[] = [];
    let down = false;
    let issued = 0;
    const store = new InMemoryTokenStore();
    const oauth = new OAuthClient({
      server: SERVER,
      grant: 'client_credentials',
      clientId: 'machine',
      clientSecret: 'secret',
      store,
      fetch: fakeFetch(
        documents,
        {
          [`${ISSUER}/token`]: () => {
            if (down) throw new TypeError('fetch failed');
            return { access_token: `at-${++issued}`, expires_in: 1, refresh_token: 'rt' };
          },
        },
        posts,
      ),
      now: () => 0,
    });
    await oauth.refused(refusal);
    down = true;
    // Bug: the refresh token was dropped as if the server had refused it, so the next step was a login.
    await assert.rejects(Promise.resolve(oauth.authorization()), /could not be reached: fetch failed/);
    assert.equal((await store.load(SERVER))?.tokens?.refresh_token, 'rt');
    down = false;
    assert.equal(await oauth.authorization(), 'Bearer at-2');
    assert.equal(posts.at(-1)!.form.get('grant_type'), 'refresh_token');
  });
});
