// The authorization server the OAuth tests start (test/support/authorization-server.ts), checked with
// nothing but fetch and jose, as an MCP client and server would use it: metadata at both well-known
// URLs, a native public client registered dynamically, the authorization code flow with PKCE S256 and a
// resource indicator through the development login and consent pages, a JWT access token whose `aud` is
// the MCP server, a refresh, and a client credentials token for a confidential client.

import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import {
  type AuthorizationServer,
  startAuthorizationServer,
  type TokenResponse,
} from '../support/authorization-server.js';

const RESOURCE = 'http://127.0.0.1:9999/mcp';
const REDIRECT_URI = 'http://127.0.0.1:49152/callback';

interface Metadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  jwks_uri: string;
  introspection_endpoint: string;
  revocation_endpoint: string;
  code_challenge_methods_supported: string[];
  authorization_response_iss_parameter_supported: boolean;
  scopes_supported: string[];
  grant_types_supported: string[];
}

async function json<T>(response: Response, status = 200): Promise<T> {
  const body = await response.text();
  assert.equal(response.status, status, body);
  return JSON.parse(body) as T;
}

const postForm = (url: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers, body: new URLSearchParams(params) });

describe('test support: a real authorization server (oidc-provider)', { timeout: 20_000 }, () => {
  let server: AuthorizationServer;
  let metadata: Metadata;
  let verify: (token: string) => Promise<JWTPayload>;

  before(async () => {
    server = await startAuthorizationServer({ accessTokenTTL: 60 });
    metadata = await json<Metadata>(await fetch(server.url('/.well-known/oauth-authorization-server')));
    const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri));
    verify = async (token) =>
      (await jwtVerify(token, jwks, { issuer: server.issuer, audience: RESOURCE, typ: 'at+jwt' })).payload;
  });

  after(() => server?.close());

  it('serves the same metadata at both well-known URLs, with S256 and RFC 9207 iss', async () => {
    const openid = await json<Metadata>(await fetch(server.url('/.well-known/openid-configuration')));
    assert.deepEqual(openid, metadata);
    assert.equal(metadata.issuer, server.issuer);
    assert.match(server.issuer, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
    assert.equal(metadata.authorization_response_iss_parameter_supported, true);
    assert.ok(
      metadata.registration_endpoint && metadata.introspection_endpoint && metadata.revocation_endpoint,
    );
    for (const scope of ['openid', 'offline_access', 'mcp:read', 'mcp:write', 'mcp:admin']) {
      assert.ok(metadata.scopes_supported.includes(scope), scope);
    }
    for (const grant of ['authorization_code', 'refresh_token', 'client_credentials']) {
      assert.ok(metadata.grant_types_supported.includes(grant), grant);
    }
  });

  it('runs the authorization code flow with PKCE and a resource, then refreshes', async () => {
    const client = await server.registerClient({
      application_type: 'native',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'self-test',
    });
    assert.ok(client.client_id);
    assert.equal(client.client_secret, undefined);

    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(16).toString('base64url');
    const authorize = new URL(metadata.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'mcp:read',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource: RESOURCE,
    }).toString();

    const redirect = await server.completeLogin(authorize, { account: 'alice' });
    assert.equal(`${redirect.origin}${redirect.pathname}`, REDIRECT_URI);
    assert.equal(redirect.searchParams.get('state'), state);
    assert.equal(redirect.searchParams.get('iss'), server.issuer);
    const code = redirect.searchParams.get('code');
    assert.ok(code, redirect.href);

    const tokens = await json<TokenResponse>(
      await postForm(metadata.token_endpoint, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: client.client_id,
        resource: RESOURCE,
      }),
    );
    assert.equal(tokens.token_type, 'Bearer');
    assert.equal(tokens.expires_in, 60);
    assert.equal(tokens.scope, 'mcp:read');
    assert.ok(tokens.refresh_token, 'a refresh token without offline_access');
    const claims = await verify(tokens.access_token);
    assert.equal(claims.sub, 'alice');
    assert.equal(claims.aud, RESOURCE);
    assert.equal(claims.client_id, client.client_id);
    assert.equal(claims.scope, 'mcp:read');

    const refreshed = await json<TokenResponse>(
      await postForm(metadata.token_endpoint, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: client.client_id,
        resource: RESOURCE,
      }),
    );
    assert.notEqual(refreshed.access_token, tokens.access_token);
    const refreshedClaims = await verify(refreshed.access_token);
    assert.equal(refreshedClaims.sub, 'alice');
    assert.equal(refreshedClaims.scope, 'mcp:read');
    // A public client's refresh token is rotated: a new one comes back and the old one is spent.
    assert.ok(refreshed.refresh_token && refreshed.refresh_token !== tokens.refresh_token);
    const introspection = await json<{ active: boolean; sub: string; scope: string; token_type?: string }>(
      await postForm(metadata.introspection_endpoint, {
        token: refreshed.refresh_token,
        client_id: client.client_id,
      }),
    );
    assert.equal(introspection.active, true);
    assert.equal(introspection.sub, 'alice');
    assert.equal(introspection.scope, 'mcp:read');

    const reuse = await json<{ error: string }>(
      await postForm(metadata.token_endpoint, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: client.client_id,
      }),
      400,
    );
    assert.equal(reuse.error, 'invalid_grant');
  });

  it('redirects with access_denied when the user cancels at the consent page', async () => {
    const client = await server.registerClient({
      application_type: 'native',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
    });
    const authorize = new URL(metadata.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'mcp:read',
      state: 'denied',
      code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
      resource: RESOURCE,
    }).toString();
    const redirect = await server.completeLogin(authorize, { approve: false });
    assert.equal(redirect.searchParams.get('error'), 'access_denied');
    assert.equal(redirect.searchParams.get('state'), 'denied');
    assert.equal(redirect.searchParams.get('iss'), server.issuer);
  });

  it('issues a client credentials token for a confidential client and a resource', async () => {
    const client = await server.registerClient({
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    assert.ok(client.client_secret);
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
    const token = await json<TokenResponse>(
      await postForm(
        metadata.token_endpoint,
        { grant_type: 'client_credentials', resource: RESOURCE, scope: 'mcp:read mcp:write' },
        { Authorization: `Basic ${basic}` },
      ),
    );
    assert.equal(token.scope, 'mcp:read mcp:write');
    const claims = await verify(token.access_token);
    assert.equal(claims.sub, client.client_id);
    assert.equal(claims.scope, 'mcp:read mcp:write');

    const viaHelper = await server.clientCredentialsToken(client, { resource: RESOURCE, scope: 'mcp:admin' });
    assert.equal((await verify(viaHelper.access_token)).scope, 'mcp:admin');

    // oidc-provider keeps no record of a JWT access token: introspection cannot find it.
    const introspection = await json<{ active: boolean }>(
      await postForm(
        metadata.introspection_endpoint,
        { token: token.access_token },
        { Authorization: `Basic ${basic}` },
      ),
    );
    assert.deepEqual(introspection, { active: false });
  });

  it('turns either metadata URL off, and logs requests', async () => {
    const bare = await startAuthorizationServer({ openidConfiguration: false });
    try {
      assert.equal((await fetch(bare.url('/.well-known/openid-configuration'))).status, 404);
      const document = await json<Metadata>(await fetch(bare.url('/.well-known/oauth-authorization-server')));
      assert.equal(document.issuer, bare.issuer);
      assert.deepEqual(bare.requests(), [
        'GET /.well-known/openid-configuration',
        'GET /.well-known/oauth-authorization-server',
      ]);
    } finally {
      await bare.close();
    }
    const oidcOnly = await startAuthorizationServer({ oauthAuthorizationServer: false });
    try {
      assert.equal((await fetch(oidcOnly.url('/.well-known/oauth-authorization-server'))).status, 404);
      assert.equal((await fetch(oidcOnly.url('/.well-known/openid-configuration'))).status, 200);
    } finally {
      await oidcOnly.close();
    }
  });

  it('refuses a resource it was not configured for', async () => {
    const strict = await startAuthorizationServer({ resources: [RESOURCE] });
    try {
      const client = await strict.registerClient({
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
      });
      await assert.rejects(
        strict.clientCredentialsToken(client, { resource: 'http://127.0.0.1:1/other' }),
        /invalid_target/,
      );
      // Without `resource`, the default (the first configured) is used.
      const token = await strict.clientCredentialsToken(client, { scope: 'mcp:read' });
      const [, payload = ''] = token.access_token.split('.');
      assert.equal(JSON.parse(Buffer.from(payload, 'base64url').toString()).aud, RESOURCE);
    } finally {
      await strict.close();
    }
  });

  it('runs without registration, with the clients it was given', async () => {
    const closed = await startAuthorizationServer({
      registration: false,
      clients: [
        {
          client_id: 'robot',
          client_secret: 'robot-secret',
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
        },
      ],
    });
    try {
      const document = await json<Partial<Metadata>>(
        await fetch(closed.url('/.well-known/openid-configuration')),
      );
      assert.equal(document.registration_endpoint, undefined);
      await assert.rejects(closed.registerClient({ redirect_uris: [REDIRECT_URI] }), /registration failed/);
      const token = await closed.clientCredentialsToken(
        { client_id: 'robot', client_secret: 'robot-secret' },
        { resource: RESOURCE, scope: 'mcp:read' },
      );
      const [, payload = ''] = token.access_token.split('.');
      assert.equal(JSON.parse(Buffer.from(payload, 'base64url').toString()).sub, 'robot');
    } finally {
      await closed.close();
    }
  });
});
