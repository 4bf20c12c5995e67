// The official conformance suite's server scenarios (the whole active suite) against `mcpwire serve
// everything` behind the proxy (`mcpwire proxy --http -- serve everything`, the server on stdio) and behind
// the gateway (`mcpwire gateway --http`, a configuration of that one server, its names unprefixed). They
// must pass as they do against the server itself (server.test.ts): the same expected failures, none.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot, runSuite, type ScenarioResult, verdicts } from '../support/conformance.js';

const expected = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'expected-failures.json'), 'utf8'),
) as { server: Record<string, string> };

const BIN = path.join(repoRoot, 'bin', 'mcpwire.js');

/** Starts a mcpwire command that listens and resolves with its URL, as it announces it on stderr. */
function start(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /(http:\/\/\S+\/mcp)/.exec(text);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`mcpwire ${args[0]} exited with ${code}: ${text}`)));
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-bridges-'));
const config = path.join(dir, 'servers.json');
writeFileSync(
  config,
  JSON.stringify({
    mcpServers: {
      everything: { command: process.execPath, args: [BIN, 'serve', 'everything'], prefix: false },
    },
  }),
);

const bridges: Record<string, string[]> = {
  proxy: ['proxy', '--http', '0', '--', process.execPath, BIN, 'serve', 'everything'],
  gateway: ['gateway', config, '--http', '0'],
};

for (const [name, args] of Object.entries(bridges)) {
  describe(`conformance: server scenarios through mcpwire ${name}`, () => {
    let bridge: { child: ChildProcess; url: string } | undefined;
    const results = new Map<string, ScenarioResult>();

    before(async () => {
      bridge = await start(args);
      for (const result of await runSuite('server', ['--url', bridge.url, '--suite', 'active'])) {
        results.set(result.scenario, result);
      }
    });

    after(() => {
      bridge?.child.kill('SIGTERM');
      if (name === 'gateway') rmSync(dir, { recursive: true, force: true });
    });

    it('ran the active suite', () => {
      assert.ok(results.size >= 25, `only ${results.size} scenarios reported`);
    });

    it('every check passes, apart from the written-down expected failures', () => {
      const failed: string[] = [];
      for (const result of results.values()) {
        for (const check of verdicts(result)) {
          const key = `${result.scenario}/${check.id}`;
          if (check.status !== 'SUCCESS' && !(key in expected.server)) {
            failed.push(`${key}: ${check.status} ${check.errorMessage ?? check.description ?? ''}`);
          }
        }
      }
      assert.deepEqual(failed, []);
    });
  });
}
