// The conformance suite 0.2's server requirement sets (2025-11-25 and 2026-07-28, each exactly as the
// revision requires it, `--requirements`) against `mcpwire serve everything --http`. The 0.1.16 run
// (server.test.ts) stays for what 0.2 no longer covers. Extension scenarios (tasks-*, the skills ones) run
// in these sets but are not scored by them; they are left out here (the tasks extension is its own work).

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
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
/** Scenarios of an extension: reported by the suite as "not scored" for a revision. */
const EXTENSION = /^(tasks-|sep-2640-)/;

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'bin', 'mcpwire.js'), 'serve', 'everything', '--http', '0'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /(http:\/\/\S+\/mcp)/.exec(text);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`serve everything exited with ${code}: ${text}`)));
  });
}

describe('conformance 0.2: server requirement sets', () => {
  let server: { child: ChildProcess; url: string };
  const results = new Map<string, ScenarioResult[]>();

  before(async () => {
    server = await startServer();
    const saved: Array<ScenarioResult & { revision: string }> = [];
    for (const revision of REVISIONS) {
      const run = await runSuite(
        'server',
        ['--url', server.url, '--requirements', revision],
        300_000,
        SUITE_02,
      );
      results.set(revision, run);
      saved.push(...run.map((result) => ({ ...result, revision })));
    }
    saveResults(path.join(repoRoot, '.tools', 'conformance-0.2-server.json'), saved);
  });

  after(() => {
    server?.child.kill();
  });

  for (const revision of REVISIONS) {
    it(`${revision}: every scored check passes`, () => {
      const run = results.get(revision) ?? [];
      assert.ok(run.length >= 25, `only ${run.length} scenarios reported for ${revision}`);
      const failed: string[] = [];
      for (const result of run) {
        if (EXTENSION.test(result.scenario)) continue;
        for (const check of verdicts(result)) {
          // SKIPPED: the check does not apply to this server or revision.
          if (check.status === 'SUCCESS' || check.status === 'SKIPPED') continue;
          failed.push(
            `${result.scenario}/${check.id}: ${check.status} ${check.errorMessage ?? check.description ?? ''}`,
          );
        }
      }
      assert.deepEqual(failed, []);
    });
  }
});
