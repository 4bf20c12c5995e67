// Runs the official conformance suite (installed under .tools/ by scripts/setup-conformance.mjs) and
// reads its per-scenario results.

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

let toolsCache: { node: string; conformance: string } | undefined;

export function conformanceTools(): { node: string; conformance: string } {
  toolsCache ??= JSON.parse(
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'setup-conformance.mjs')], {
      encoding: 'utf8',
    }),
  ) as { node: string; conformance: string };
  return toolsCache;
}

/** Runs `conformance <args>` and returns the results of every scenario it saved. */
export async function runSuite(
  side: 'server' | 'client',
  args: string[],
  timeoutMs = 300_000,
): Promise<ScenarioResult[]> {
  const { node, conformance } = conformanceTools();
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
  return readdirSync(out).map((dir) => ({
    // Directories are named <scenario>-<time>, and server ones start with "server-" as well.
    scenario: dir.replace(/-\d{4}-\d{2}-\d{2}T.*$/, '').replace(side === 'server' ? /^server-/ : /^$/, ''),
    side,
    checks: JSON.parse(readFileSync(path.join(out, dir, 'checks.json'), 'utf8')) as Check[],
  }));
}

/** Checks that count: INFO records are the suite's own log. */
export function verdicts(result: ScenarioResult): Check[] {
  return result.checks.filter((c) => c.status !== 'INFO');
}

/** Keeps the latest results for the README table (scripts/conformance-table.mjs). */
export function saveResults(file: string, results: ScenarioResult[]): void {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}
