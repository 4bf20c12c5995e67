// A protected server that moves to another authorization server and back (issue #17: the CLI's token
// file "keyed by issuer and resource"): against two real authorization servers (oidc-provider on
// 127.0.0.1) and one mcpwire server whose port stays while its trusted issuer changes, the client logs
// in at each, keeps both records in the file, and back at the first one logs in with the client it
// registered there, registering no second one.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { McpServer } from '../../src/server/server.js';
import { FileTokenStore } from '../../src/transport/http/auth/file-token-store.js';
import { OAuthClient } from '../../src/transport/http/auth/oauth-client.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import { type AuthorizationServer, startAuthorizationServer } from '../support/authorization-server.js';

const REDIRECT = 'http://127.0.0.1:53682/callback';

describe('a server that moves to another authorization server and back', { timeout: 60_000 }, () => {
  let a: AuthorizationServer;
  let b: AuthorizationServer;
  let folder: string;

  before(async () => {
    [a, b] = await Promise.all([startAuthorizationServer(), startAuthorizationServer()]);
    folder = mkdtempSync(path.join(tmpdir(), 'mcpwire-migration-'));
  });

  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  /** Serves on `port` (0: any) trusting `as`, runs `use` with the endpoint's URL, then stops. */
  async function serving(port: number, as: AuthorizationServer, use: (url: string) => Promise<void>) {
    const server = new McpServer({ name: 'moving', version: '1.0.0' });
    server.tool({ name: 'whoami', description: 'Says who called' }, async (_args, ctx) => ({
      content: [{ type: 'text', text: `${ctx.auth?.issuer} ${ctx.auth?.subject}` }],
    }));
    const listener = await server.serveHttp({
      port,
      authorization: { issuer: as.issuer, requiredScopes: ['mcp:read'] },
    });
    try {
      await use(listener.url);
    } finally {
      await listener.close();
    }
    return Number(new URL(listener.url).port);
  }

  const registrations = (as: AuthorizationServer) => as.requests().filter((r) => r === 'POST /reg').length;

  it('keeps a record per issuer in the token file and reuses the first registration on the way back', async () => {
    const file = path.join(folder, 'auth.json');
    const store = new FileTokenStore(file);
    const logins: string[] = [];
    const call = async (url: string, as: AuthorizationServer, account: string) => {
      const authorization = new OAuthClient({
        server: url,
        store,
        redirectUri: REDIRECT,
        authorize: async (authorizeUrl) => {
          logins.push(authorizeUrl.origin);
          return as.completeLogin(authorizeUrl, { account });
        },
      });
      const client = new McpClient({ name: 'migration-tests', version: '1.0.0' });
      await client.connect(new HttpClientTransport(url, { authorization }));
      const result = await client.callTool('whoami', {});
      await client.close();
      return (result.content[0] as { text: string }).text;
    };

    let resource = '';
    const port = await serving(0, a, async (url) => {
      resource = url;
      assert.equal(await call(url, a, 'alice'), `${a.issuer} alice`);
    });
    await serving(port, b, async (url) => {
      assert.equal(url, resource);
      assert.equal(await call(url, b, 'bob'), `${b.issuer} bob`);
    });
    const aClient = (await store.load(resource, a.issuer))?.client?.client_id;
    assert.ok(aClient, "A's record survives the move to B");
    assert.equal((await store.load(resource))?.issuer, b.issuer, "B's record is the latest");
    const keys = Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object);
    assert.deepEqual(keys, [`${a.issuer} ${resource}`, `${b.issuer} ${resource}`]);

    await serving(port, a, async (url) => {
      assert.equal(await call(url, a, 'alice'), `${a.issuer} alice`);
    });
    // Bug: the record was keyed by the resource alone, so B's replaced A's, and back at A the client
    // registered a second time.
    assert.equal(registrations(a), 1, 'one registration at A, reused');
    assert.equal(registrations(b), 1);
    assert.equal((await store.load(resource, a.issuer))?.client?.client_id, aClient);
    assert.deepEqual(logins, [a.issuer, b.issuer, a.issuer]);
  });
});
