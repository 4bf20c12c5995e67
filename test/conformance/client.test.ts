// The official conformance suite's client scenarios (those without OAuth) against mcpwire's client.

import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { repoRoot, runSuite, type ScenarioResult, saveResults, verdicts } from '../support/conformance.js';

const SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

describe('conformance: client scenarios', () => {
  const results = new Map<string, ScenarioResult>();

  before(async () => {
    const command = `${process.execPath} ${path.join(repoRoot, 'test', 'conformance', 'client.mjs')}`;
    const runs = await Promise.all(
      SCENARIOS.map((scenario) => runSuite('client', ['--command', command, '--scenario', scenario])),
    );
    for (const result of runs.flat()) results.set(result.scenario, result);
    saveResults(path.join(repoRoot, '.tools', 'conformance-client.json'), [...results.values()]);
  });

  for (const scenario of SCENARIOS) {
    it(scenario, () => {
      const result = results.get(scenario);
      assert.ok(result, `the suite saved no result for ${scenario}`);
      const checks = verdicts(result);
      assert.ok(checks.length > 0, `${scenario} ran no check`);
      const failed = checks.filter((c) => c.status !== 'SUCCESS');
      assert.deepEqual(
        failed.map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`),
        [],
        `${scenario} has failing checks`,
      );
    });
  }
});
