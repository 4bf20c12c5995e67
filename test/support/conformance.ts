// Runs the official conformance suite (installed under .tools/ by scripts/setup-conformance.mjs, which
// runs before the tests) and reads its per-scenario results.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description?: string;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  side: 'server' | 'client';
  checks: Check[];
}

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

const SETUP = 'node scripts/setup-conformance.mjs';

/** Which installed suite: 0.1.16 (conformance.json) or the 0.2 line (conformance-0.2.json). */
export type SuiteLine = '0.1' | '0.2';

/** Node 22 and the suite, where the setup put them; an error naming the setup when they are not there. */
export function conformanceTools(line: SuiteLine = '0.1'): { node: string; conformance: string } {
  const file = path.join(repoRoot, '.tools', line === '0.1' ? 'conformance.json' : 'conformance-0.2.json');
  if (!existsSync(file)) {
    throw new Error(`the conformance suite is not installed: run "${SETUP}" (npm run test:conformance does)`);
  }
  const tools = JSON.parse(readFileSync(file, 'utf8')) as { node: string; conformance: string };
  for (const installed of [tools.node, tools.conformance]) {
    if (!existsSync(installed)) {
      throw new Error(`${installed} (from ${file}) is gone: run "${SETUP}" again`);
    }
  }
  return tools;
}

/** Runs `conformance <args>` and returns the results of every scenario it saved. */
export async function runSuite(
  side: 'server' | 'client',
  args: string[],
  timeoutMs = 300_000,
  suite?: string,
): Promise<ScenarioResult[]> {
  const tools = conformanceTools();
  const { node } = tools;
  // `suite`: another installed version of the suite's entry point (0.2 for the tasks scenarios).
  const conformance = suite ?? tools.conformance;
  const out = mkdtempSync(path.join(tmpdir(), 'mcpwire-conformance-'));
  await new Promise<void>((resolve) => {
    // The suite exits non-zero when a check fails; the checks themselves are what the tests assert.
    execFile(
      node,
      [conformance, side, ...args, '-o', out],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      () => resolve(),
    );
  });
  try {
    return resultDirs(out).map((dir) => ({
      // Directories are named <scenario>-<time>, and server ones start with "server-" as well. A scenario
      // whose name has a slash (auth/metadata-default) is saved one directory further down (auth/).
      scenario: dir.replace(/-\d{4}-\d{2}-\d{2}T.*$/, '').replace(side === 'server' ? /^server-/ : /^$/, ''),
      side,
      checks: JSON.parse(readFileSync(path.join(out, dir, 'checks.json'), 'utf8')) as Check[],
    }));
  } finally {
    // The results are read; a run must not leave its directory behind in the machine's tmp.
    rmSync(out, { recursive: true, force: true });
  }
}

/** The directories under `root` that hold a checks.json, relative to it, with "/" between names. */
function resultDirs(root: string, prefix = ''): string[] {
  return readdirSync(path.join(root, prefix), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const dir = prefix ? `${prefix}/${entry.name}` : entry.name;
      return existsSync(path.join(root, dir, 'checks.json')) ? [dir] : resultDirs(root, dir);
    });
}

/** Checks that count: INFO records are the suite's own log. */
export function verdicts(result: ScenarioResult): Check[] {
  return result.checks.filter((c) => c.status !== 'INFO');
}

/** Keeps the latest results for the README table (scripts/conformance-table.mjs). */
export function saveResults(file: string, results: ScenarioResult[]): void {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}
