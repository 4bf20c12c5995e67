// mcpwire's HTTP server as an OAuth resource server: every refusal the authorization issue lists, each
// with its HTTP status, its WWW-Authenticate challenge and a JSON-RPC error body, against tokens minted
// by a local issuer (test/support/token-issuer.ts); then what an accepted caller gets: the session bound
// to it, its identity in every handler's context (both eras), and never the token itself.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestMetadataHeaders } from '../../src/protocol/http/metadata-headers.js';
import { McpServer } from '../../src/server/server.js';
import { parseBearerChallenge } from '../../src/transport/http/auth/challenge.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { initializeRequest, POST_HEADERS, VERSION } from '../support/http-helpers.js';
import { startTokenIssuer, type TokenIssuer } from '../support/token-issuer.js';

const STATELESS_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'auth-tests', version: '1.0.0' },
};

describe('authorization: mcpwire as a resource server', { timeout: 20_000 }, () => {
  let issuer: TokenIssuer;
  let listener: HttpListener;
  let url: string;
  let seen: unknown[];

  before(async () => {
    issuer = await startTokenIssuer();
    const server = new McpServer({ name: 'protected', version: '1.0.0' });
    seen = [];
    server.tool({ name: 'whoami', description: 'Says who called' }, async (_args, ctx) => {
      seen.push(ctx.auth);
      return { content: [{ type: 'text', text: JSON.stringify(ctx.auth) }] };
    });
    server.tool({ name: 'drop_tables', description: 'Needs mcp:admin' }, async () => ({
      content: [{ type: 'text', text: 'dropped' }],
    }));
    listener = await server.serveHttp({
      authorization: {
        issuer: issuer.issuer,
        requiredScopes: ['mcp:read'],
        tools: { drop_tables: ['mcp:admin'] },
        methods: { 'resources/list': ['mcp:resources'] },
      },
    });
    url = listener.url;
  });

  after(async () => {
    await listener?.close();
    await issuer?.close();
  });

  const call = (authorization: string | undefined, body: unknown = initializeRequest(), extra = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { ...POST_HEADERS, ...(authorization ? { Authorization: authorization } : {}), ...extra },
      body: JSON.stringify(body),
    });

  /** A refusal: its status, the challenge's parameters and the JSON-RPC error's message. */
  async function refusal(response: Response) {
    const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
    const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string } };
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(typeof body.error.code, 'number');
    return { status: response.status, challenge, message: body.error.message };
  }

  const metadataUrl = () => `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`;
  const good = (options = {}) => issuer.mint({ audience: url, scope: 'mcp:read', ...options });

  it('serves its protected resource metadata (RFC 9728) at the path-inserted well-known URI', async () => {
    const response = await fetch(metadataUrl());
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const document = (await response.json()) as Record<string, unknown>;
    assert.equal(document.resource, url);
    assert.deepEqual(document.authorization_servers, [issuer.issuer]);
    assert.deepEqual(document.bearer_methods_supported, ['header']);
    assert.deepEqual(
      new Set(document.scopes_supported as string[]),
      new Set(['mcp:read', 'mcp:admin', 'mcp:resources']),
    );
  });

  // The table of the README: what each bad credential gets.
  const cases: Array<{
    name: string;
    authorization: () => Promise<string | undefined>;
    status: number;
    error: string | undefined;
    message: RegExp;
  }> = [
    {
      name: 'no token',
      authorization: async () => undefined,
      status: 401,
      error: undefined,
      message: /needs an OAuth access token/,
    },
    {
      name: 'another scheme (Basic)',
      authorization: async () => 'Basic YWxpY2U6c2VjcmV0',
      status: 401,
      error: undefined,
      message: /Bearer/,
    },
    {
      name: 'a malformed header ("Bearer" alone)',
      authorization: async () => 'Bearer',
      status: 400,
      error: 'invalid_request',
      message: /not "Bearer <token>"/,
    },
    {
      name: 'a malformed header (two tokens)',
      authorization: async () => 'Bearer a b',
      status: 400,
      error: 'invalid_request',
      message: /not "Bearer <token>"/,
    },
    {
      name: 'not a JWT',
      authorization: async () => 'Bearer not-a-jwt',
      status: 401,
      error: 'invalid_token',
      message: /not a well-formed JWT/,
    },
    {
      name: 'expired',
      authorization: async () => `Bearer ${await good({ expiresIn: -120 })}`,
      status: 401,
      error: 'invalid_token',
      message: /expired/,
    },
    {
      name: 'not yet valid',
      authorization: async () => `Bearer ${await good({ notBefore: 3600 })}`,
      status: 401,
      error: 'invalid_token',
      message: /not valid yet/,
    },
    {
      name: 'for another resource (aud)',
      authorization: async () => `Bearer ${await good({ audience: 'http://127.0.0.1:1/mcp' })}`,
      status: 401,
      error: 'invalid_token',
      message: /another resource/,
    },
    {
      name: 'no audience',
      authorization: async () => `Bearer ${await good({ audience: undefined as unknown as string })}`,
      status: 401,
      error: 'invalid_token',
      message: /aud/,
    },
    {
      name: 'from another issuer (iss)',
      authorization: async () => `Bearer ${await good({ issuer: 'http://127.0.0.1:1' })}`,
      status: 401,
      error: 'invalid_token',
      message: /issuer/,
    },
    {
      name: 'a bad signature',
      authorization: async () => `Bearer ${await good({ foreignKey: true })}`,
      status: 401,
      error: 'invalid_token',
      message: /signature/,
    },
    {
      name: 'an unknown kid',
      authorization: async () => `Bearer ${await good({ kid: 'k9' })}`,
      status: 401,
      error: 'invalid_token',
      message: /unknown kid/,
    },
    {
      name: 'alg: none',
      authorization: async () => `Bearer ${issuer.unsigned({ audience: url, scope: 'mcp:read' })}`,
      status: 401,
      error: 'invalid_token',
      message: /algorithm this server does not accept/,
    },
    {
      name: 'an algorithm not allowed (HS256, a shared secret)',
      authorization: async () => `Bearer ${await good({ hmacSecret: 'a secret anyone could guess' })}`,
      status: 401,
      error: 'invalid_token',
      message: /algorithm this server does not accept/,
    },
    {
      name: 'missing the scope every request needs',
      authorization: async () => `Bearer ${await good({ scope: 'mcp:other' })}`,
      status: 403,
      error: 'insufficient_scope',
      message: /mcp:read/,
    },
  ];
  for (const c of cases) {
    it(`refuses ${c.name}: HTTP ${c.status}${c.error ? `, ${c.error}` : ''}, with where to get a token`, async () => {
      const r = await refusal(await call(await c.authorization()));
      assert.equal(r.status, c.status);
      assert.ok(r.challenge, 'a Bearer challenge in WWW-Authenticate');
      assert.equal(r.challenge.error, c.error);
      assert.equal(r.challenge.resource_metadata, metadataUrl());
      assert.match(r.message, c.message);
      assert.match(r.challenge.error_description ?? '', c.message);
      assert.match(r.challenge.scope ?? '', /mcp:read/);
      assert.equal(listener.handler.sessions.size, 0, 'a refused request opens no session');
    });
  }

  it('never reads a token from the query string', async () => {
    const token = await good();
    const response = await fetch(`${url}?access_token=${token}`, {
      method: 'POST',
      headers: POST_HEADERS,
      body: JSON.stringify(initializeRequest()),
    });
    assert.equal(response.status, 401);
  });

  it('refuses GET and DELETE without a token too', async () => {
    const get = await fetch(url, { headers: { Accept: 'text/event-stream' } });
    assert.equal(get.status, 401);
    await get.body?.cancel();
    const del = await fetch(url, { method: 'DELETE' });
    assert.equal(del.status, 401);
    await del.body?.cancel();
  });

  async function openSession(token: string): Promise<string> {
    const response = await call(`Bearer ${token}`, initializeRequest(), { Accept: 'application/json' });
    assert.equal(response.status, 200);
    await response.json();
    const id = response.headers.get('mcp-session-id');
    assert.ok(id);
    const initialized = await call(
      `Bearer ${token}`,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        'Mcp-Session-Id': id,
        'MCP-Protocol-Version': VERSION,
      },
    );
    assert.equal(initialized.status, 202);
    return id;
  }

  const toolCall = (id: number, name: string) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: {} },
  });

  it('gives an accepted caller a session, and its identity (never its token) to every handler', async () => {
    const token = await good({ subject: 'alice', clientId: 'cli-1', scope: 'mcp:read mcp:write' });
    const session = await openSession(token);
    seen.length = 0;
    const response = await call(`Bearer ${token}`, toolCall(2, 'whoami'), {
      'Mcp-Session-Id': session,
      'MCP-Protocol-Version': VERSION,
      Accept: 'application/json',
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { result: { content: Array<{ text: string }> } };
    const auth = JSON.parse(body.result.content[0]!.text) as Record<string, unknown>;
    assert.equal(auth.subject, 'alice');
    assert.equal(auth.clientId, 'cli-1');
    assert.deepEqual(auth.scopes, ['mcp:read', 'mcp:write']);
    assert.equal(auth.issuer, issuer.issuer);
    assert.equal(seen.length, 1);
    assert.ok(!JSON.stringify(seen).includes(token), 'the raw token reaches no handler');
  });

  it('refuses a tool call without the scope that tool needs, naming it (403, for step-up)', async () => {
    const token = await good({ scope: 'mcp:read' });
    const session = await openSession(token);
    const response = await call(`Bearer ${token}`, toolCall(3, 'drop_tables'), {
      'Mcp-Session-Id': session,
      'MCP-Protocol-Version': VERSION,
    });
    const r = await refusal(response);
    assert.equal(r.status, 403);
    assert.equal(r.challenge?.error, 'insufficient_scope');
    assert.deepEqual(r.challenge?.scope?.split(' ').sort(), ['mcp:admin', 'mcp:read']);
    const admin = await good({ scope: 'mcp:read mcp:admin' });
    const allowed = await call(`Bearer ${admin}`, toolCall(4, 'drop_tables'), {
      'Mcp-Session-Id': session,
      'MCP-Protocol-Version': VERSION,
      Accept: 'application/json',
    });
    assert.equal(allowed.status, 200, 'a token with more scope (after step-up) works on the same session');
    await allowed.body?.cancel();
  });

  it('refuses a method without the scope that method needs, naming it (403, for step-up)', async () => {
    const token = await good({ scope: 'mcp:read' });
    const session = await openSession(token);
    const headers = {
      'Mcp-Session-Id': session,
      'MCP-Protocol-Version': VERSION,
      Accept: 'application/json',
    };
    const list = { jsonrpc: '2.0', id: 6, method: 'resources/list', params: {} };
    const r = await refusal(await call(`Bearer ${token}`, list, headers));
    assert.equal(r.status, 403);
    assert.equal(r.challenge?.error, 'insufficient_scope');
    assert.match(r.message, /mcp:resources/);
    assert.deepEqual(r.challenge?.scope?.split(' ').sort(), ['mcp:read', 'mcp:resources']);
    // Other methods need only what every request needs.
    const tools = await call(`Bearer ${token}`, { ...list, method: 'tools/list' }, headers);
    assert.equal(tools.status, 200);
    await tools.body?.cancel();
  });

  it('allows 30 s of clock skew: a token expired 10 s ago, or valid 10 s from now, is accepted', async () => {
    for (const token of [await good({ expiresIn: -10 }), await good({ notBefore: 10 })]) {
      const response = await call(`Bearer ${token}`, initializeRequest(), { Accept: 'application/json' });
      assert.equal(response.status, 200);
      await response.body?.cancel();
    }
  });

  it('refuses a session to any caller but the one that opened it', async () => {
    const session = await openSession(await good({ subject: 'alice' }));
    const bob = await good({ subject: 'bob' });
    const response = await call(`Bearer ${bob}`, toolCall(5, 'whoami'), {
      'Mcp-Session-Id': session,
      'MCP-Protocol-Version': VERSION,
    });
    const r = await refusal(response);
    assert.equal(r.status, 403);
    assert.match(r.message, /another caller/);
  });

  it('gives a 2026-07-28 request, which has no session, the same identity in its context', async () => {
    const token = await good({ subject: 'carol' });
    const message = {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'whoami', arguments: {}, _meta: STATELESS_META },
    };
    const response = await call(`Bearer ${token}`, message, requestMetadataHeaders(message));
    assert.equal(response.status, 200);
    const body = (await response.json()) as { result: { content: Array<{ text: string }> } };
    assert.equal((JSON.parse(body.result.content[0]!.text) as { subject: string }).subject, 'carol');
    const refused = await call(undefined, message, requestMetadataHeaders(message));
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
  });
});
