// The command line with an authorization server that offers DPoP (oidc-provider, 127.0.0.1): `mcpwire
// login` gets tokens bound to a key it makes and keeps with them (in the 0600 token file), and later
// commands present them to `mcpwire serve everything --auth-issuer` as DPoP tokens with a proof for each
// request, which the server checks.

import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type AuthorizationServer, startAuthorizationServer } from '../support/authorization-server.js';
import { BIN, REPO_ROOT } from '../support/peers.js';
import { runCli } from '../support/run-cli.js';

/** The first match of `pattern` in what `child` writes on stderr. */
function stderrMatch(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) resolve(match);
    });
    child.on('exit', () => reject(new Error(`exited before ${pattern}: ${text}`)));
  });
}

describe('mcpwire login and --url commands with DPoP-bound tokens', { timeout: 120_000 }, () => {
  let as: AuthorizationServer;
  let server: ChildProcessWithoutNullStreams;
  let url: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    as = await startAuthorizationServer({ scopes: ['mcp:read'], dpop: true });
    dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-dpop-'));
    env = { ...process.env, MCPWIRE_AUTH_FILE: path.join(dir, 'auth.json') };
    server = spawn(
      process.execPath,
      [BIN, 'serve', 'everything', '--http', '0', '--auth-issuer', as.issuer, '--auth-scopes', 'mcp:read'],
      { cwd: REPO_ROOT, env },
    );
    url = (await stderrMatch(server, /listening on (\S+)/))[1]!;
  });

  after(async () => {
    server?.kill('SIGKILL');
    await as?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs in, keeps the key with the tokens, and later commands present them with proofs', async () => {
    const login = spawn(process.execPath, [BIN, 'login', url, '--no-open'], { cwd: REPO_ROOT, env });
    const exited = new Promise<number | null>((resolve) => login.on('close', resolve));
    const authorizeUrl = (await stderrMatch(login, /^\s+(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m))[1]!;
    const back = await as.completeLogin(authorizeUrl);
    await (await fetch(back)).text();
    assert.equal(await exited, 0);

    const stored = JSON.parse(readFileSync(env.MCPWIRE_AUTH_FILE!, 'utf8'))[`${as.issuer} ${url}`];
    assert.equal(stored.tokens.token_type.toLowerCase(), 'dpop');
    assert.equal(stored.dpop_jwk.kty, 'EC', 'the key is kept with the tokens');

    const tools = await runCli(['tools', '--url', url], 60_000, env);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /echo/);
    const call = await runCli(['call', 'echo', 'message=bound', '--url', url], 60_000, env);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /bound/);
  });
});
