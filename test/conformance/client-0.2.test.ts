// The conformance suite 0.2's client requirement sets (2025-11-25 and 2026-07-28, `--requirements`)
// against mcpwire's client (test/conformance/client.mjs). Every check passes or is SKIPPED (it does not
// apply), apart from the authorization checks written down in expected-failures.json ("client-0.2"), each
// with its reason; an entry there that starts passing fails the test too, so the list only shrinks.

import assert from 'node:assert/strict';
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

const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
/** The 0.2 line's entry point (scripts/setup-conformance.mjs installs it beside 0.1.16). */
const SUITE_02 = conformanceTools('0.2').conformance;

const expected = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'expected-failures.json'), 'utf8'),
) as { 'client-0.2': Record<string, string> };

describe('conformance 0.2: client requirement sets', () => {
  const results = new Map<string, ScenarioResult[]>();
  /** Expected failures seen failing, and the scenarios run, over both revisions. */
  const failing = new Set<string>();
  const ran = new Set<string>();

  before(async () => {
    const command = `${process.execPath} ${path.join(repoRoot, 'test', 'conformance', 'client.mjs')}`;
    const saved: Array<ScenarioResult & { revision: string }> = [];
    for (const revision of REVISIONS) {
      const run = await runSuite(
        'client',
        ['--command', command, '--requirements', revision],
        600_000,
        SUITE_02,
      );
      results.set(revision, run);
      saved.push(...run.map((result) => ({ ...result, revision })));
    }
    saveResults(path.join(repoRoot, '.tools', 'conformance-0.2-client.json'), saved);
  });

  it('expected failures are authorization checks only, each with its reason', () => {
    for (const [key, reason] of Object.entries(expected['client-0.2'])) {
      assert.match(key, /^auth\//, key);
      assert.ok(reason.length > 40, `${key} needs its reason`);
    }
  });

  for (const revision of REVISIONS) {
    it(`${revision}: every check passes, apart from the written-down authorization failures`, () => {
      const run = results.get(revision) ?? [];
      assert.ok(run.length >= 5, `only ${run.length} scenarios reported for ${revision}`);
      const failed: string[] = [];
      for (const result of run) {
        ran.add(result.scenario);
        const checks = verdicts(result);
        if (checks.length === 0) failed.push(`${result.scenario}: ran no check`);
        for (const check of checks) {
          if (check.status === 'SUCCESS' || check.status === 'SKIPPED') continue;
          const key = `${result.scenario}/${check.id}`;
          failing.add(key);
          if (!(key in expected['client-0.2'])) {
            failed.push(`${key}: ${check.status} ${check.errorMessage ?? check.description ?? ''}`);
          }
        }
      }
      assert.deepEqual(failed, []);
    });
  }

  it('every expected failure still fails in a revision that runs it (the list only shrinks)', () => {
    const nowPassing = Object.keys(expected['client-0.2']).filter(
      (key) => ran.has(key.slice(0, key.lastIndexOf('/'))) && !failing.has(key),
    );
    assert.deepEqual(nowPassing, [], 'expected failures that no longer fail: remove them');
  });
});
