// The conformance suite's authorization server scenarios (0.2 line: `conformance authorization`; 0.1.16
// has none, and neither line has a scenario for an MCP server as a resource server). They test an
// authorization server, which mcpwire does not ship, so they run against the one mcpwire's authorization
// tests trust: oidc-provider on 127.0.0.1 (test/support/authorization-server.ts), configured as those tests
// configure it. Every scenario the suite lists runs, each with no failing check; the browser step of the
// authorization code scenario is done by the test (the URL the suite prints is signed in and consented to,
// and the redirect is delivered to the suite's callback).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type AuthorizationServer, startAuthorizationServer } from '../support/authorization-server.js';
import { type Check, conformanceTools } from '../support/conformance.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const CLIENT_ID = 'conformance-suite';

/** A port free a moment ago, for the suite's callback server (the client's redirect URI names it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Every scenario directory under `root` (a checks.json in it), by scenario name (the directory is
 * "authorization-server-<scenario>-<time>"). */
function results(root: string): Map<string, Check[]> {
  const found = new Map<string, Check[]>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = path.join(dir, entry.name);
      if (existsSync(path.join(full, 'checks.json'))) {
        const name = path
          .relative(root, full)
          .replace(/-\d{4}-\d{2}-\d{2}T.*$/, '')
          .replace(/^authorization-server-(?=.)/, '');
        found.set(name, JSON.parse(readFileSync(path.join(full, 'checks.json'), 'utf8')) as Check[]);
      } else walk(full);
    }
  };
  walk(root);
  return found;
}

describe("conformance 0.2: authorization server scenarios, against the tests' oidc-provider", {
  timeout: 120_000,
}, () => {
  const { node, conformance } = conformanceTools('0.2');
  let as: AuthorizationServer;
  let out: string;
  let listed: string[];
  let ran: Map<string, Check[]>;
  let transcript = '';

  before(async () => {
    listed = await new Promise<string[]>((resolve, reject) => {
      const child = spawn(node, [conformance, 'list', '--authorization']);
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk;
      });
      child.on('error', reject);
      child.on('close', () => resolve([...text.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!)));
    });
    const port = await freePort();
    as = await startAuthorizationServer({
      resources: [RESOURCE],
      // The suite asks for no scope; oidc-provider would refuse a request that grants none.
      defaultScope: 'mcp:read',
      clients: [
        {
          client_id: CLIENT_ID,
          token_endpoint_auth_method: 'none',
          redirect_uris: [`http://127.0.0.1:${port}/callback`],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        },
      ],
    });
    out = mkdtempSync(path.join(tmpdir(), 'mcpwire-conformance-as-'));
    const args = ['authorization', '--url', as.issuer, '--client-id', CLIENT_ID, '--resource', RESOURCE];
    const child = spawn(node, [conformance, ...args, '-p', String(port), '-o', out]);
    child.stderr.on('data', (chunk: Buffer) => {
      transcript += chunk;
    });
    // The suite prints the authorization URL and waits for the browser to come back to its callback.
    let browsing: Promise<unknown> = Promise.resolve();
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      transcript += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith(`${as.issuer}/`)) continue;
        browsing = as
          .completeLogin(line.trim())
          .then((redirect) => fetch(redirect))
          .then((response) => response.text());
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    await browsing;
    ran = results(out);
    assert.ok(code === 0 || code === 1, `the suite exited ${code}:\n${transcript}`);
  });

  after(async () => {
    await as?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('runs every authorization server scenario the suite lists', () => {
    assert.ok(listed.length >= 2, `the suite listed ${listed.join(', ') || 'none'}`);
    assert.deepEqual([...ran.keys()].sort(), [...listed].sort(), transcript);
  });

  it('passes each with no failing check: metadata (RFC 8414) and the authorization code grant with PKCE and resource', () => {
    for (const [scenario, checks] of ran) {
      const failed = checks.filter((c) => c.status === 'FAILURE');
      assert.deepEqual(failed, [], `${scenario}:\n${transcript}`);
      assert.ok(
        checks.some((c) => c.status === 'SUCCESS'),
        `${scenario} has no passing check`,
      );
    }
    const grant = ran.get('authorization-code-grant') ?? [];
    assert.equal(grant.find((c) => c.id === 'authorization-code-grant')?.status, 'SUCCESS');
  });

  it('warns only that oidc-provider does not advertise Client ID Metadata Documents (a SHOULD it does not implement)', () => {
    const warnings = [...ran.values()].flat().filter((c) => c.status === 'WARNING');
    assert.deepEqual(
      warnings.map((c) => c.id),
      ['authorization-server-metadata-cimd'],
    );
  });
});
