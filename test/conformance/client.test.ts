// The official conformance suite's client scenarios against mcpwire's client (test/conformance/client.mjs):
// the four without OAuth and every authorization scenario of the suites auth, backcompat (MCP 2025-03-26
// discovery), draft and extensions. Every check passes, apart from those written down in
// expected-failures.json with the reason (features mcpwire's OAuth client does not have); an entry there
// that starts passing fails the test too, so that the list only shrinks.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import {
  conformanceTools,
  repoRoot,
  runSuite,
  type ScenarioResult,
  saveResults,
  verdicts,
} from '../support/conformance.js';

const SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  // suite auth
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  // suite backcompat
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  // suite draft
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  // suite extensions
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/cross-app-access-complete-flow',
];

/** How many scenarios run at once: each is the suite's process, its mock servers and a client process. */
const PARALLEL = 4;

const expected = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'expected-failures.json'), 'utf8'),
) as { client: Record<string, string> };

/** The client scenarios the installed suite lists (`conformance list`). */
function listedScenarios(): Promise<string[]> {
  const { node, conformance } = conformanceTools();
  return new Promise((resolve, reject) => {
    execFile(node, [conformance, 'list'], (error, stdout) => {
      if (error) return reject(error);
      const client = stdout.slice(stdout.indexOf('Client scenarios'));
      resolve([...client.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!));
    });
  });
}

describe('conformance: client scenarios', () => {
  const results = new Map<string, ScenarioResult>();

  before(async () => {
    const command = `${process.execPath} ${path.join(repoRoot, 'test', 'conformance', 'client.mjs')}`;
    const queue = [...SCENARIOS];
    const worker = async () => {
      for (let scenario = queue.shift(); scenario; scenario = queue.shift()) {
        for (const result of await runSuite('client', ['--command', command, '--scenario', scenario])) {
          results.set(result.scenario, result);
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    saveResults(path.join(repoRoot, '.tools', 'conformance-client.json'), [...results.values()]);
  });

  it('runs every client scenario the suite lists', async () => {
    assert.deepEqual(
      (await listedScenarios()).filter((s) => !SCENARIOS.includes(s)),
      [],
    );
  });

  it('lists expected failures only for scenarios it runs', () => {
    const unknown = Object.keys(expected.client).filter(
      (key) => !SCENARIOS.includes(key.slice(0, key.lastIndexOf('/'))),
    );
    assert.deepEqual(unknown, []);
  });

  for (const scenario of SCENARIOS) {
    it(scenario, () => {
      const result = results.get(scenario);
      assert.ok(result, `the suite saved no result for ${scenario}`);
      const checks = verdicts(result);
      assert.ok(checks.length > 0, `${scenario} ran no check`);
      const failed = checks
        .filter((c) => c.status !== 'SUCCESS' && !(`${scenario}/${c.id}` in expected.client))
        .map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? c.description ?? ''}`);
      assert.deepEqual(failed, [], `${scenario} has failing checks`);
      const nowPassing = Object.keys(expected.client).filter(
        (key) =>
          key.startsWith(`${scenario}/`) &&
          !checks.some((c) => `${scenario}/${c.id}` === key && c.status !== 'SUCCESS'),
      );
      assert.deepEqual(nowPassing, [], `expected failures of ${scenario} that no longer fail`);
    });
  }
});
