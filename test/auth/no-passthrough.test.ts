// Tokens are never passed through (issue #17, and MCP's authorization: "MUST NOT pass through the token
// it received from the MCP client"): a gateway whose front is protected by oidc-provider (127.0.0.1) and
// whose back server is protected by the same authorization server for its own resource. The caller's
// token reaches the front's verifier and nothing else; the back receives only tokens the gateway got for
// itself (its own client, audience the back), and the back's handler sees the gateway as its caller.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { type Gateway, openGateway, serveGatewayHttp } from '../../src/gateway/gateway.js';
import { parseConfig } from '../../src/host/config.js';
import { McpServer } from '../../src/server/server.js';
import { jwtVerifier } from '../../src/transport/http/auth/jwt-verifier.js';
import { OAuthClient } from '../../src/transport/http/auth/oauth-client.js';
import { InMemoryTokenStore } from '../../src/transport/http/auth/token-store.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { type AuthorizationServer, startAuthorizationServer } from '../support/authorization-server.js';
import { freePort } from '../support/fleet-harness.js';
import { REPO_ROOT } from '../support/peers.js';

const audienceOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { aud?: unknown }).aud;

describe('authorization: a gateway passes no token through', { timeout: 60_000 }, () => {
  let as: AuthorizationServer;
  let back: HttpListener;
  let gateway: Gateway;
  let front: HttpListener;
  /** Every token the back server was shown, and every one the front was shown. */
  const backSaw: string[] = [];
  const frontSaw: string[] = [];
  const events: unknown[] = [];

  before(async () => {
    as = await startAuthorizationServer({ scopes: ['mcp:read'] });
    const backUrl = `http://127.0.0.1:${await freePort()}/mcp`;
    const verifyBack = jwtVerifier({ issuer: as.issuer, audience: backUrl });
    const server = new McpServer({ name: 'back', version: '1.0.0' });
    server.tool({ name: 'whoami', description: 'Says who called' }, async (_args, ctx) => ({
      content: [{ type: 'text', text: JSON.stringify({ clientId: ctx.auth?.clientId }) }],
    }));
    back = await server.serveHttp({
      port: Number(new URL(backUrl).port),
      authorization: {
        issuer: as.issuer,
        requiredScopes: ['mcp:read'],
        verifier: (token) => {
          backSaw.push(token);
          return verifyBack(token);
        },
      },
    });
    const json = { mcpServers: { back: { url: back.url } } };
    gateway = await openGateway(
      { host: parseConfig(json, process.env, REPO_ROOT), filters: new Map() },
      {
        info: { name: 'gw', version: '1.0.0' },
        host: {
          // The gateway's own credentials for its back servers: a machine client of its own.
          authorization: (_name, url) =>
            new OAuthClient({ server: url, grant: 'client_credentials', scope: 'mcp:read' }),
          onEvent: (event) => events.push(event),
        },
      },
    );
    const frontUrl = `http://127.0.0.1:${await freePort()}/mcp`;
    const verifyFront = jwtVerifier({ issuer: as.issuer, audience: frontUrl });
    front = await serveGatewayHttp(gateway, {
      port: Number(new URL(frontUrl).port),
      authorization: {
        issuer: as.issuer,
        requiredScopes: ['mcp:read'],
        verifier: (token) => {
          frontSaw.push(token);
          return verifyFront(token);
        },
      },
    });
  });

  after(async () => {
    await front?.close();
    await gateway?.close();
    await back?.close();
    await as?.close();
  });

  it("calls the back server with the gateway's own token, never the caller's", async () => {
    const store = new InMemoryTokenStore();
    const caller = new OAuthClient({
      server: front.url,
      store,
      grant: 'client_credentials',
      scope: 'mcp:read',
    });
    const client = new McpClient({ name: 'caller', version: '1.0.0' });
    await client.connect(new HttpClientTransport(front.url, { authorization: caller }));
    const result = await client.callTool('back__whoami', {});
    const { clientId } = JSON.parse((result.content[0] as { text: string }).text) as { clientId: string };
    await client.close();

    const callerRecord = (await store.load(front.url))!;
    const callerToken = callerRecord.tokens!.access_token;
    assert.ok(frontSaw.includes(callerToken), "the front checked the caller's token");
    assert.ok(backSaw.length > 0, 'the back was called with a token');
    assert.ok(!backSaw.includes(callerToken), "the caller's token never reached the back");
    for (const token of backSaw) assert.equal(audienceOf(token), back.url, 'each for the back itself');
    assert.ok(clientId, 'the back saw a client');
    assert.notEqual(clientId, callerRecord.client!.client_id, 'the gateway, not the caller');
    assert.ok(!JSON.stringify(events).includes(callerToken), 'no host event carries the token');
  });
});
