// `mcpwire login URL --workload-token FILE` (workload identity federation, SEP-1933) against `mcpwire
// serve everything --http --auth-issuer`: the JWT the platform keeps in FILE is presented as a JWT bearer
// grant with the server's resource, nothing is registered, and later commands take their next token the
// same way, reading FILE again (the platform rotates it). The authorization server is the tests' token
// issuer with a token endpoint for that grant (oidc-provider offers no JWT bearer grant).

import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, REPO_ROOT } from '../support/peers.js';
import { runCli } from '../support/run-cli.js';
import { startTokenIssuer, type TokenIssuer } from '../support/token-issuer.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Stand-ins for the platform's JWTs: the issuer takes whichever is current, and nothing else. */
const workloadJwt = (n: number) => `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZC0${n}In0.c2lnbmF0dXJl${n}`;

describe('mcpwire login --workload-token', { timeout: 120_000 }, () => {
  let issuer: TokenIssuer;
  let server: ChildProcessWithoutNullStreams;
  let url: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let current = workloadJwt(1);
  const grants: URLSearchParams[] = [];

  before(async () => {
    issuer = await startTokenIssuer({
      grant: (form) => {
        grants.push(form);
        if (form.get('grant_type') !== JWT_BEARER) return `unexpected grant ${form.get('grant_type')}`;
        if (form.get('assertion') !== current) return 'this is not the current workload JWT';
        return {
          audience: form.get('resource') ?? '',
          scope: 'mcp:read',
          subject: 'system:serviceaccount:ci:bot',
        };
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-workload-'));
    env = { ...process.env, MCPWIRE_AUTH_FILE: path.join(dir, 'auth.json') };
    server = spawn(
      process.execPath,
      [
        BIN,
        'serve',
        'everything',
        '--http',
        '0',
        '--auth-issuer',
        issuer.issuer,
        '--auth-scopes',
        'mcp:read',
      ],
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
    await issuer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs in with the JWT in the file, registering nothing, and later commands read the file again', async () => {
    const file = path.join(dir, 'token');
    writeFileSync(file, `${current}\n`);
    const login = await runCli(['login', url, '--workload-token', file], 60_000, env);
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stderr, new RegExp(`Logged in to .* at ${issuer.issuer}`));
    assert.equal(grants.length, 1);
    assert.equal(grants[0]!.get('resource'), url);
    assert.equal(grants[0]!.get('client_id'), null, 'no client id: nothing registered');
    const stored = JSON.parse(readFileSync(env.MCPWIRE_AUTH_FILE!, 'utf8'))[`${issuer.issuer} ${url}`];
    assert.equal(stored.client.grant, 'workload_identity');
    assert.equal(stored.client.workload_token_file, file);
    assert.ok(!login.stderr.includes(current) && !login.stdout.includes(current), 'the JWT is not printed');

    const tools = await runCli(['tools', '--url', url], 60_000, env);
    assert.equal(tools.code, 0, tools.stderr);
    assert.equal(grants.length, 1, 'the stored token is used');

    // The platform rotates the JWT, and the access token goes bad: the next command takes a new token
    // with the JWT now in the file.
    current = workloadJwt(2);
    writeFileSync(file, current);
    const all = JSON.parse(readFileSync(env.MCPWIRE_AUTH_FILE!, 'utf8'));
    all[`${issuer.issuer} ${url}`].tokens.access_token = 'not-a-valid-token';
    writeFileSync(env.MCPWIRE_AUTH_FILE!, JSON.stringify(all), { mode: 0o600 });
    const call = await runCli(['call', 'echo', 'message=workload', '--url', url], 60_000, env);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /workload/);
    assert.equal(grants.length, 2);
    assert.equal(grants[1]!.get('assertion'), workloadJwt(2));
  });

  it('refuses a file that holds no JWT, and --workload-token with client credentials', async () => {
    const empty = path.join(dir, 'empty');
    writeFileSync(empty, '\n');
    const bad = await runCli(['login', url, '--workload-token', empty], 30_000, env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /does not hold a JWT/);
    const both = await runCli(
      [
        'login',
        url,
        '--workload-token',
        empty,
        '--client-credentials',
        '--client-id',
        'x',
        '--client-secret',
        'y',
      ],
      30_000,
      env,
    );
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--workload-token is a login of its own/);
  });
});
