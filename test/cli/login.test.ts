// The command line against a protected server, as a newcomer meets it: `mcpwire serve everything --http
// --auth-issuer` trusting a real authorization server (oidc-provider), a command on its URL that says to
// log in (exit 3), `mcpwire login URL` through the loopback redirect (the browser's part played by the
// test), later commands that use the stored tokens, the token file readable by its owner alone and its
// tokens never printed, and `mcpwire logout`.

import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseBearerChallenge } from '../../src/transport/http/auth/challenge.js';
import { type AuthorizationServer, startAuthorizationServer } from '../support/authorization-server.js';
import { BIN, REPO_ROOT } from '../support/peers.js';
import { runCli } from '../support/run-cli.js';

/** A child's stderr, and a wait for a pattern in it (a wait for output, not for time). */
function watch(child: ChildProcessWithoutNullStreams) {
  let text = '';
  const waiters: Array<() => void> = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    for (const waiter of waiters.splice(0)) waiter();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    get text() {
      return text;
    },
    exited,
    async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
      for (;;) {
        const match = pattern.exec(text);
        if (match) return match;
        if (child.exitCode !== null) throw new Error(`exited before ${pattern}: ${text}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

describe('mcpwire login, logout, and --url commands on a protected server', { timeout: 120_000 }, () => {
  let as: AuthorizationServer;
  let server: ChildProcessWithoutNullStreams;
  let url: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let authFile: string;
  /** What the protected server wrote on stderr: it must never hold a token. */
  let serverLog: ReturnType<typeof watch>;

  before(async () => {
    as = await startAuthorizationServer({ scopes: ['mcp:read'] });
    dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-login-'));
    authFile = path.join(dir, 'auth', 'tokens.json');
    env = { ...process.env, MCPWIRE_AUTH_FILE: authFile };
    server = spawn(
      process.execPath,
      [BIN, 'serve', 'everything', '--http', '0', '--auth-issuer', as.issuer, '--auth-scopes', 'mcp:read'],
      { cwd: REPO_ROOT, env },
    );
    serverLog = watch(server);
    url = (await serverLog.waitFor(/listening on (\S+)/))[1]!;
  });

  after(async () => {
    server?.kill('SIGKILL');
    await as?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serve --auth-issuer refuses a request without a token, naming its metadata, which it serves', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(response.status, 401);
    const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
    assert.equal(challenge?.scope, 'mcp:read');
    const metadata = (await (await fetch(challenge!.resource_metadata!)).json()) as Record<string, unknown>;
    assert.equal(metadata.resource, url);
    assert.deepEqual(metadata.authorization_servers, [as.issuer]);
  });

  it('says that a login is needed, and how, before one happened (exit 3)', async () => {
    const run = await runCli(['tools', '--url', url], 60_000, env);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /needs a login at http:\/\/127\.0\.0\.1/);
    assert.match(run.stderr, new RegExp(`mcpwire login ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('logs in through the loopback redirect, stores the tokens for its owner alone, and later commands use them', async () => {
    const login = spawn(process.execPath, [BIN, 'login', url, '--no-open'], { cwd: REPO_ROOT, env });
    const out = watch(login);
    let stdout = '';
    login.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    const authorizeUrl = (await out.waitFor(/^\s+(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m))[1]!;
    const back = await as.completeLogin(authorizeUrl);
    assert.equal(back.hostname, '127.0.0.1');
    const page = await fetch(back);
    assert.match(await page.text(), /Logged in/);
    assert.equal(await out.exited, 0, out.text);
    assert.match(out.text, new RegExp(`Logged in to .* at ${as.issuer}`));

    assert.equal(statSync(authFile).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(authFile)).mode & 0o777, 0o700);
    const stored = JSON.parse(readFileSync(authFile, 'utf8'));
    const tokens = stored[`${as.issuer} ${url}`].tokens; // keyed by issuer and resource
    assert.ok(tokens.access_token && tokens.refresh_token);
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      assert.ok(!out.text.includes(token) && !stdout.includes(token), 'no token is printed');
    }

    const tools = await runCli(['tools', '--url', url], 60_000, env);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /echo/);
    assert.ok(!tools.stdout.includes(tokens.access_token) && !tools.stderr.includes(tokens.access_token));
  });

  it('refreshes a stored token that the server refuses, without a login', async () => {
    const stored = JSON.parse(readFileSync(authFile, 'utf8'));
    stored[`${as.issuer} ${url}`].tokens.access_token = 'not-a-valid-token';
    const { writeFileSync } = await import('node:fs');
    writeFileSync(authFile, JSON.stringify(stored), { mode: 0o600 });
    const call = await runCli(['call', 'echo', 'message=hi', '--url', url], 60_000, env);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /hi/);
    assert.notEqual(
      JSON.parse(readFileSync(authFile, 'utf8'))[`${as.issuer} ${url}`].tokens.access_token,
      'not-a-valid-token',
    );
  });

  it('a url entry of a configuration file uses the stored tokens too, and no token is printed or logged', async () => {
    const { writeFileSync } = await import('node:fs');
    const config = path.join(dir, 'remote.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { remote: { url } } }));
    const tools = await runCli(['tools', '--config', config], 60_000, env);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /echo/);
    const { tokens } = JSON.parse(readFileSync(authFile, 'utf8'))[`${as.issuer} ${url}`];
    for (const token of [tokens.access_token, tokens.refresh_token, 'not-a-valid-token']) {
      assert.ok(
        !tools.stdout.includes(token) && !tools.stderr.includes(token),
        'the command prints no token',
      );
      assert.ok(!serverLog.text.includes(token), 'the server logs no token it was shown, good or bad');
    }
  });

  it('logout forgets the tokens: the next command needs a login again', async () => {
    const logout = await runCli(['logout', url], 30_000, env);
    assert.equal(logout.code, 0, logout.stderr);
    assert.match(logout.stderr, /Logged out of/);
    const tools = await runCli(['tools', '--url', url], 60_000, env);
    assert.equal(tools.code, 3);
    assert.match(tools.stderr, /needs a login/);
  });

  it('logs a machine in with --client-credentials --private-key (private_key_jwt); later commands renew its token by themselves', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { writeFileSync } = await import('node:fs');
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const registered = await as.registerClient({
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [{ ...pair.publicKey.export({ format: 'jwk' }), kid: 'cli-key' }] },
    });
    const keyFile = path.join(dir, 'machine.pem');
    writeFileSync(keyFile, pair.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    // The provider's ids are random base64url and may start with '-', which an option parser takes for
    // an option: one argument with '=' is what a script should write (this test failed now and then).
    const flags = ['--client-credentials', `--client-id=${registered.client_id}`];
    const login = await runCli(
      ['login', url, ...flags, '--private-key', keyFile, '--key-id', 'cli-key'],
      60_000,
      env,
    );
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stderr, new RegExp(`Logged in to .* at ${as.issuer}`));
    assert.equal(
      JSON.parse(readFileSync(authFile, 'utf8'))[`${as.issuer} ${url}`].client.token_endpoint_auth_method,
      'private_key_jwt',
    );

    // A client credentials token comes without a refresh token: the next one is a new grant, signed again.
    const stored = JSON.parse(readFileSync(authFile, 'utf8'));
    stored[`${as.issuer} ${url}`].tokens.access_token = 'not-a-valid-token';
    writeFileSync(authFile, JSON.stringify(stored), { mode: 0o600 });
    const call = await runCli(['call', 'echo', 'message=machine', '--url', url], 60_000, env);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /machine/);

    const wrong = path.join(dir, 'not-a-key.pem');
    writeFileSync(wrong, 'not a key\n');
    const bad = await runCli(['login', url, ...flags, '--private-key', wrong], 30_000, env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--private-key .*not-a-key\.pem: the client's private key could not be read/);
    const neither = await runCli(['login', url, ...flags], 30_000, env);
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /needs --client-id, and --client-secret or --private-key/);
    assert.equal((await runCli(['logout', url], 30_000, env)).code, 0);
  });

  it('serve fs and serve sqlite take the same options; --auth-audience names the resource tokens must be for', async () => {
    const audience = 'https://mcp.example.com/mcp';
    const db = path.join(dir, 'auth.db');
    const machine = await as.registerClient({
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    for (const serverArgs of [
      ['fs', '--root', dir],
      ['sqlite', db, '--create'],
    ]) {
      const child = spawn(
        process.execPath,
        [
          BIN,
          'serve',
          ...serverArgs,
          '--http',
          '0',
          '--auth-issuer',
          as.issuer,
          '--auth-audience',
          audience,
          '--auth-scopes',
          'mcp:read',
        ],
        { cwd: REPO_ROOT, env },
      );
      try {
        const local = (await watch(child).waitFor(/listening on (\S+)/))[1]!;
        const post = (authorization?: string) =>
          fetch(local, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
              ...(authorization ? { Authorization: authorization } : {}),
            },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'initialize',
              params: {
                protocolVersion: '2025-11-25',
                capabilities: {},
                clientInfo: { name: 't', version: '1' },
              },
            }),
          });
        const none = await post();
        assert.equal(none.status, 401, serverArgs[0]);
        const challenge = parseBearerChallenge(none.headers.get('www-authenticate'));
        // The challenge names the metadata at the public URL (the audience); this server serves it too.
        assert.equal(
          challenge?.resource_metadata,
          'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
        );
        const served = `${new URL(local).origin}/.well-known/oauth-protected-resource/mcp`;
        const metadata = (await (await fetch(served)).json()) as Record<string, unknown>;
        assert.equal(metadata.resource, audience);
        const forAudience = await as.clientCredentialsToken(machine, {
          resource: audience,
          scope: 'mcp:read',
        });
        const accepted = await post(`Bearer ${forAudience.access_token}`);
        assert.equal(accepted.status, 200, `${serverArgs[0]}: ${await accepted.clone().text()}`);
        await accepted.body?.cancel();
        // A token for the server's own URL is for another resource once the audience is set.
        const forUrl = await as.clientCredentialsToken(machine, { resource: local, scope: 'mcp:read' });
        const refused = await post(`Bearer ${forUrl.access_token}`);
        assert.equal(refused.status, 401);
        assert.match(refused.headers.get('www-authenticate') ?? '', /another resource/);
        await refused.body?.cancel();
      } finally {
        child.kill('SIGKILL');
      }
    }
  });

  it('refuses login without a URL, and --auth-issuer without --http, with the fix', async () => {
    const bare = await runCli(['login'], 30_000, env);
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /which server\?/);
    const stdio = await runCli(['serve', 'everything', '--auth-issuer', as.issuer], 30_000, env);
    assert.equal(stdio.code, 2);
    assert.match(stdio.stderr, /--auth-issuer goes with --http PORT/);
  });
});
