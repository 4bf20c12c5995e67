// The official conformance suite's server scenarios (the active suite) against a fleet: three
// `mcpwire serve everything --redis` instances behind HAProxy (round-robin, no stickiness) on
// redis-server, all started here. The same checks as against one instance must pass.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runSuite, type ScenarioResult, verdicts } from '../support/conformance.js';
import { type Fleet, startFleet } from '../support/fleet-harness.js';

const expected = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'expected-failures.json'), 'utf8'),
) as {
  server: Record<string, string>;
};

describe('conformance: server scenarios against a fleet of three behind HAProxy', () => {
  let fleet: Fleet;
  const results = new Map<string, ScenarioResult>();

  before(async () => {
    fleet = await startFleet(3);
    for (const result of await runSuite('server', ['--url', fleet.url, '--suite', 'active'])) {
      results.set(result.scenario, result);
    }
  });

  after(async () => {
    await fleet?.stop();
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
