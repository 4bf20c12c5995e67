// `mcpwire login URL --id-token FILE --idp-...` (enterprise-managed authorization, cross-app access,
// SEP-990) against `mcpwire serve everything --http --auth-issuer`: the ID token in FILE is exchanged at
// the identity provider for an ID-JAG (RFC 8693), which the server's authorization server takes as a JWT
// bearer grant from the client registered there; no browser. Later commands take their next token the same
// way, reading FILE again. Both servers are the tests' token issuer with a token endpoint (oidc-provider
// offers neither grant).

import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, REPO_ROOT } from '../support/peers.js';
import { runCli } from '../support/run-cli.js';
import { startTokenIssuer, type TokenIssuer } from '../support/token-issuer.js';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Stand-ins for the ID tokens of two sign-ons: the IdP takes whichever is current. */
const idToken = (n: number) => `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSIsIm4iOiR7bn19.c2lnbmF0dXJl${n}`;
const payloadOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

describe('mcpwire login --id-token (cross-app access)', { timeout: 120_000 }, () => {
  let idp: TokenIssuer;
  let as: TokenIssuer;
  let server: ChildProcessWithoutNullStreams;
  let url: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let current = idToken(1);
  const exchanges: URLSearchParams[] = [];
  const grants: URLSearchParams[] = [];

  before(async () => {
    idp = await startTokenIssuer({
      grant: (form) => {
        exchanges.push(form);
        if (form.get('grant_type') !== EXCHANGE) return `unexpected grant ${form.get('grant_type')}`;
        if (form.get('subject_token') !== current) return 'this is not the current ID token';
        return { audience: form.get('audience') ?? '', subject: 'alice@example.com' };
      },
    });
    as = await startTokenIssuer({
      grant: (form) => {
        grants.push(form);
        if (form.get('grant_type') !== JWT_BEARER) return `unexpected grant ${form.get('grant_type')}`;
        const jag = payloadOf(form.get('assertion') ?? '');
        if (jag.iss !== idp.issuer || jag.aud !== as.issuer) return 'not an ID-JAG of the trusted IdP for me';
        return { audience: form.get('resource') ?? '', scope: 'mcp:read', subject: String(jag.sub) };
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-cross-app-'));
    env = { ...process.env, MCPWIRE_AUTH_FILE: path.join(dir, 'auth.json') };
    server = spawn(
      process.execPath,
      [BIN, 'serve', 'everything', '--http', '0', '--auth-issuer', as.issuer, '--auth-scopes', 'mcp:read'],
      { cwd: REPO_ROOT, env },
    );
    url = await new Promise<string>((resolve, reject) => {
      let text = '';
      server.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        const match = /listening on (\S+)/.exec(text);
        if (match) resolve(match[1]!);
      });
      server.on('exit', () => reject(new Error(`serve exited: ${text}`)));
    });
  });

  after(async () => {
    server?.kill('SIGKILL');
    await Promise.all([idp?.close(), as?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('exchanges the ID token for an ID-JAG and logs in with it; later commands read the file again', async () => {
    const file = path.join(dir, 'id-token');
    writeFileSync(file, `${current}\n`);
    const flags = ['--id-token', file, '--idp-issuer', idp.issuer, '--idp-client-id', 'mcp-at-idp'];
    const login = await runCli(
      [
        'login',
        url,
        ...flags,
        '--idp-client-secret',
        's1',
        '--client-id',
        'mcp-at-as',
        '--client-secret',
        's2',
      ],
      60_000,
      env,
    );
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stderr, new RegExp(`Logged in to .* at ${as.issuer}`));
    assert.equal(exchanges.length, 1);
    assert.equal(exchanges[0]!.get('audience'), as.issuer);
    assert.equal(exchanges[0]!.get('resource'), url);
    assert.equal(grants.length, 1);
    const stored = JSON.parse(readFileSync(env.MCPWIRE_AUTH_FILE!, 'utf8'))[`${as.issuer} ${url}`];
    assert.equal(stored.client.grant, 'cross_app_access');
    assert.equal(stored.client.cross_app.id_token_file, file);
    assert.ok(!`${login.stdout}${login.stderr}`.includes(current), 'the ID token is not printed');

    // A new sign-on puts a new ID token in the file, and the access token goes bad: the next command
    // exchanges the new ID token by itself.
    current = idToken(2);
    writeFileSync(file, current);
    const all = JSON.parse(readFileSync(env.MCPWIRE_AUTH_FILE!, 'utf8'));
    all[`${as.issuer} ${url}`].tokens.access_token = 'not-a-valid-token';
    writeFileSync(env.MCPWIRE_AUTH_FILE!, JSON.stringify(all), { mode: 0o600 });
    const call = await runCli(['call', 'echo', 'message=enterprise', '--url', url], 60_000, env);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /enterprise/);
    assert.equal(exchanges.length, 2);
    assert.equal(exchanges[1]!.get('subject_token'), idToken(2));
    assert.equal(grants.length, 2);
  });

  it('needs the IdP named, and no other grant beside it', async () => {
    const file = path.join(dir, 'id-token');
    const missing = await runCli(['login', url, '--id-token', file], 30_000, env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--idp-client-id, and --idp-issuer URL or --idp-token-endpoint URL/);
    const stray = await runCli(['login', url, '--idp-client-id', 'x'], 30_000, env);
    assert.equal(stray.code, 2);
    assert.match(stray.stderr, /--idp-client-id goes with --id-token FILE/);
  });
});
