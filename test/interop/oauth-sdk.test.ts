// OAuth 2.1 authorization between mcpwire and the official SDK v1 (@modelcontextprotocol/sdk 1.32.2), both
// trusting the same real authorization server (oidc-provider, test/support/authorization-server.ts):
//  - the SDK v1 Client, its StreamableHTTPClientTransport and an OAuthClientProvider (its auth() flow:
//    the 401, the redirect, finishAuth(code)) against mcpwire's McpServer.serveHttp({ authorization });
//  - mcpwire's OAuthClient against an SDK v1 server protected by the SDK's requireBearerAuth and
//    mcpAuthMetadataRouter, its tokens verified with jose against the authorization server's JWKS
//    (test/fixtures/interop/sdk-v1-protected-server.mjs).
// In both directions the tool answers with the caller the server verified, so the token that was issued
// is the one that arrived; a refused access token is refreshed without a second login. The SDK v1 client
// also steps up on mcpwire's 403 insufficient_scope, within two limits of its own that the tests write
// down: it registers a client for the first challenge's scope only, and it refreshes rather than asks for
// more scope whenever it holds a refresh token.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { McpClient } from '../../src/client/client.js';
import { McpServer } from '../../src/server/server.js';
import { OAuthClient } from '../../src/transport/http/auth/oauth-client.js';
import { InMemoryTokenStore } from '../../src/transport/http/auth/token-store.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import {
  type SdkProtectedServer,
  startSdkProtectedServer,
} from '../fixtures/interop/sdk-v1-protected-server.mjs';
import { type AuthorizationServer, startAuthorizationServer } from '../support/authorization-server.js';

const REDIRECT = 'http://127.0.0.1:53682/callback';

interface Caller {
  subject: string;
  scopes: string[];
}

/** The SDK's OAuthClientProvider, in memory: the "browser" is whatever the test does with `redirects`. */
class MemoryProvider implements OAuthClientProvider {
  readonly redirects: URL[] = [];
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  private verifier = '';
  private lastState = '';

  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'sdk-v1-interop',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientMetadata;
  }
  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }
  get expectedState(): string {
    return this.lastState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.redirects.push(url);
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}

describe('OAuth interop with the official SDK v1', { timeout: 60_000 }, () => {
  let as: AuthorizationServer;

  before(async () => {
    as = await startAuthorizationServer({ scopes: ['mcp:read', 'mcp:admin'] });
  });

  after(async () => {
    await as?.close();
  });

  describe('the SDK v1 client and its OAuthClientProvider against mcpwire serveHttp({ authorization })', () => {
    let listener: HttpListener;

    before(async () => {
      const server = new McpServer({ name: 'protected', version: '1.0.0' });
      server.tool({ name: 'whoami', description: 'Says who called' }, async (_args, ctx) => ({
        content: [
          { type: 'text', text: JSON.stringify({ subject: ctx.auth?.subject, scopes: ctx.auth?.scopes }) },
        ],
      }));
      server.tool({ name: 'admin', description: 'Needs mcp:admin' }, async () => ({
        content: [{ type: 'text', text: 'admin done' }],
      }));
      listener = await server.serveHttp({
        authorization: { issuer: as.issuer, requiredScopes: ['mcp:read'], tools: { admin: ['mcp:admin'] } },
      });
    });

    after(async () => {
      await listener?.close();
    });

    async function sdkWhoami(provider: MemoryProvider): Promise<Caller> {
      const client = new Client({ name: 'sdk-v1-interop', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(listener.url), { authProvider: provider }),
      );
      try {
        const result = await client.callTool({ name: 'whoami', arguments: {} });
        return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as Caller;
      } finally {
        await client.close();
      }
    }

    /** The SDK's login: refused with UnauthorizedError after the redirect, then finishAuth(code). */
    async function login(provider: MemoryProvider): Promise<void> {
      const transport = new StreamableHTTPClientTransport(new URL(listener.url), { authProvider: provider });
      const client = new Client({ name: 'sdk-v1-interop', version: '1.0.0' });
      await assert.rejects(client.connect(transport), UnauthorizedError);
      assert.equal(provider.redirects.length, 1, 'one redirect to the authorization endpoint');
      const authorizationUrl = provider.redirects[0]!;
      assert.equal(
        authorizationUrl.searchParams.get('resource'),
        listener.url,
        'the resource from the metadata',
      );
      assert.equal(
        authorizationUrl.searchParams.get('scope'),
        'mcp:read',
        "the scope of mcpwire's challenge",
      );
      const back = await as.completeLogin(authorizationUrl);
      assert.equal(back.searchParams.get('state'), provider.expectedState);
      await transport.finishAuth(back.searchParams.get('code')!);
      await client.close();
    }

    it('logs in from the 401 (metadata, registration, PKCE) and calls a tool as the person who logged in', async () => {
      const provider = new MemoryProvider();
      await login(provider);
      assert.ok(provider.client?.client_id, 'registered dynamically');
      assert.ok(provider.saved?.access_token);
      assert.deepEqual(await sdkWhoami(provider), { subject: 'alice', scopes: ['mcp:read'] });
      assert.equal(provider.redirects.length, 1, 'the stored token is used, no second login');
    });

    it('refreshes an access token that mcpwire refuses (401 invalid_token) and logs in no more', async () => {
      const provider = new MemoryProvider();
      await login(provider);
      assert.ok(provider.saved?.refresh_token, 'a refresh token came with the login');
      const refused = { ...provider.saved!, access_token: 'not-a-token' };
      provider.saveTokens(refused);
      assert.equal((await sdkWhoami(provider)).subject, 'alice');
      assert.notEqual(provider.saved?.access_token, 'not-a-token');
      assert.equal(provider.redirects.length, 1);
    });

    it('steps up when mcpwire answers 403 insufficient_scope: the SDK asks for the scopes the challenge names', async () => {
      const provider = new MemoryProvider();
      // Registered beforehand for both scopes: the SDK v1 registers a client dynamically with the scope of
      // the first challenge only, and oidc-provider then refuses it any other (invalid_scope).
      provider.saveClientInformation(
        await as.registerClient({ ...provider.clientMetadata, scope: 'mcp:read mcp:admin' }),
      );
      await login(provider);
      // Without a refresh token: the SDK v1's auth() refreshes first whenever it holds one (see below).
      provider.saveTokens({ ...provider.saved!, refresh_token: undefined });
      const transport = new StreamableHTTPClientTransport(new URL(listener.url), { authProvider: provider });
      const client = new Client({ name: 'sdk-v1-interop', version: '1.0.0' });
      await client.connect(transport);
      await assert.rejects(client.callTool({ name: 'admin', arguments: {} }), UnauthorizedError);
      assert.equal(provider.redirects.length, 2, 'a second authorization, for more scope');
      const asked = provider.redirects[1]!.searchParams.get('scope')!.split(' ').toSorted();
      assert.deepEqual(asked, ['mcp:admin', 'mcp:read'], 'what it had and what it lacked');
      const back = await as.completeLogin(provider.redirects[1]!);
      await transport.finishAuth(back.searchParams.get('code')!);
      await client.close();
      const again = new Client({ name: 'sdk-v1-interop', version: '1.0.0' });
      await again.connect(
        new StreamableHTTPClientTransport(new URL(listener.url), { authProvider: provider }),
      );
      const result = await again.callTool({ name: 'admin', arguments: {} });
      assert.equal((result.content as Array<{ text: string }>)[0]!.text, 'admin done');
      await again.close();
      assert.deepEqual((await sdkWhoami(provider)).scopes.toSorted(), ['mcp:admin', 'mcp:read']);
    });

    it('SDK v1 limitation: holding a refresh token, it refreshes instead of stepping up, and gives up', async () => {
      // The SDK v1's auth() uses a refresh token whenever it has one; a refresh cannot widen the scope,
      // so the same 403 comes back and its transport stops ("403 after trying upscoping"). The challenge
      // is mcpwire's, and the same as in the test above, where the SDK does step up.
      const provider = new MemoryProvider();
      await login(provider);
      const tokenPosts = as.requests().filter((r) => r.startsWith('POST /token')).length;
      const client = new Client({ name: 'sdk-v1-interop', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(listener.url), { authProvider: provider }),
      );
      await assert.rejects(client.callTool({ name: 'admin', arguments: {} }), /403 after trying upscoping/);
      await client.close();
      assert.equal(provider.redirects.length, 1, 'no authorization for more scope');
      assert.equal(
        as.requests().filter((r) => r.startsWith('POST /token')).length - tokenPosts,
        1,
        'a refresh',
      );
    });
  });

  describe("mcpwire's OAuthClient against an SDK v1 server (requireBearerAuth, mcpAuthMetadataRouter)", () => {
    let sdk: SdkProtectedServer;
    let logins = 0;

    before(async () => {
      const response = await fetch(as.url('/.well-known/oauth-authorization-server'));
      const metadata = (await response.json()) as OAuthMetadata;
      sdk = await startSdkProtectedServer({ metadata, requiredScopes: ['mcp:read'] });
    });

    after(async () => {
      await sdk?.close();
    });

    function oauth(store: InMemoryTokenStore, authorize = true): OAuthClient {
      return new OAuthClient({
        server: sdk.url,
        store,
        redirectUri: REDIRECT,
        authorize: authorize
          ? async (url) => {
              logins++;
              return as.completeLogin(url);
            }
          : () => Promise.reject(new Error('no login expected')),
      });
    }

    async function whoami(authorization: OAuthClient): Promise<Caller> {
      const client = new McpClient({ name: 'oauth-sdk-interop', version: '1.0.0' });
      await client.connect(new HttpClientTransport(sdk.url, { authorization }));
      try {
        const result = await client.callTool('whoami', {});
        return JSON.parse((result.content[0] as { text: string }).text) as Caller;
      } finally {
        await client.close();
      }
    }

    it('logs in from the SDK challenge and its resource metadata, and the SDK verifies the token', async () => {
      logins = 0;
      const store = new InMemoryTokenStore();
      const caller = await whoami(oauth(store));
      assert.equal(caller.subject, 'alice');
      assert.ok(caller.scopes.includes('mcp:read'), caller.scopes.join(' '));
      assert.equal(logins, 1);
      assert.ok(sdk.requests.includes('POST /mcp 401'), 'refused first');
      assert.ok(sdk.requests.includes('GET /.well-known/oauth-protected-resource/mcp 200'));
      const record = await store.load(sdk.url);
      assert.equal(record?.issuer, as.issuer, 'the authorization server the SDK metadata names');
    });

    it('refreshes a token the SDK refuses (401 invalid_token), with no second login', async () => {
      logins = 0;
      const store = new InMemoryTokenStore();
      await whoami(oauth(store));
      const record = (await store.load(sdk.url))!;
      record.tokens!.access_token = 'revoked-token';
      await store.save(record);
      const tokenPosts = as.requests().filter((r) => r.startsWith('POST /token')).length;
      assert.equal((await whoami(oauth(store, false))).subject, 'alice');
      assert.equal(as.requests().filter((r) => r.startsWith('POST /token')).length - tokenPosts, 1);
      assert.equal(logins, 1);
      assert.notEqual((await store.load(sdk.url))!.tokens!.access_token, 'revoked-token');
    });
  });
});
