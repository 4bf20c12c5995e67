// What the conformance suite 0.2 has beyond its two requirement sets (server-0.2 and client-0.2 run
// those, tasks.test.ts the task scenarios): the earlier revisions, 2025-06-18 and 2025-03-26, each at its
// own wire version (`--spec-version`); the skills extension's scenarios (SEP-2640, sep-2640-*), which no
// set lists; and the 2025-11-25 and 2026-07-28 server sets with the server on stdio, behind `mcpwire proxy`
// (the 2026-07-28 one with its task scenarios, behind `mcpwire gateway` as well: both hand the tasks
// extension on). Every check
// passes or is SKIPPED (it does not apply: mcpwire offers no skills extension, so the suite skips those
// checks, and they would fail here the day a server declared it wrongly). Client checks may fail only as
// authorization entries of expected-failures.json ("client-0.2"), which client-0.2.test.ts keeps honest.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

const SUITE_02 = conformanceTools('0.2').conformance;
const BIN = path.join(repoRoot, 'bin', 'mcpwire.js');

const expected = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'expected-failures.json'), 'utf8'),
) as { 'client-0.2': Record<string, string> };

interface Run {
  name: string;
  side: 'server' | 'client';
  /** The server scenarios' target: serve everything over HTTP, or on stdio behind the proxy or a gateway. */
  target?: 'http' | 'stdio' | 'gateway';
  args: string[];
  /** Fewer scenarios than this means the run did not happen as meant. */
  atLeast: number;
}

const SKILLS_SERVER = [
  'sep-2640-skills-directory',
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
];
const SKILLS_CLIENT = [
  'sep-2640-client-no-prefetch',
  'sep-2640-client-verify-digest',
  'sep-2640-client-verify-size',
  'sep-2640-client-verify-frontmatter',
];

const RUNS: Run[] = [
  { name: 'server 2025-06-18', side: 'server', args: ['--spec-version', '2025-06-18'], atLeast: 25 },
  { name: 'server 2025-03-26', side: 'server', args: ['--spec-version', '2025-03-26'], atLeast: 1 },
  ...SKILLS_SERVER.map((scenario) => ({
    name: `server ${scenario}`,
    side: 'server' as const,
    args: ['--scenario', scenario],
    atLeast: 1,
  })),
  {
    name: 'server 2025-11-25 on stdio (behind mcpwire proxy)',
    side: 'server',
    target: 'stdio',
    args: ['--requirements', '2025-11-25'],
    atLeast: 30,
  },
  {
    name: 'server 2026-07-28 on stdio (behind mcpwire proxy)',
    side: 'server',
    target: 'stdio',
    args: ['--requirements', '2026-07-28'],
    atLeast: 40,
  },
  {
    name: 'server 2026-07-28 on stdio (behind mcpwire gateway)',
    side: 'server',
    target: 'gateway',
    args: ['--requirements', '2026-07-28'],
    atLeast: 40,
  },
  {
    name: 'client 2025-06-18',
    side: 'client',
    args: ['--suite', 'all', '--spec-version', '2025-06-18'],
    atLeast: 5,
  },
  {
    name: 'client 2025-03-26',
    side: 'client',
    args: ['--suite', 'all', '--spec-version', '2025-03-26'],
    atLeast: 2,
  },
  ...SKILLS_CLIENT.map((scenario) => ({
    name: `client ${scenario}`,
    side: 'client' as const,
    args: ['--scenario', scenario],
    atLeast: 1,
  })),
];

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

describe('conformance 0.2: the revisions and scenarios outside the requirement sets', () => {
  const targets: Record<'http' | 'stdio' | 'gateway', { child: ChildProcess; url: string } | undefined> = {
    http: undefined,
    stdio: undefined,
    gateway: undefined,
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-more-'));
  const results = new Map<string, ScenarioResult[]>();

  before(async () => {
    targets.http = await start(['serve', 'everything', '--http', '0']);
    targets.stdio = await start(['proxy', '--http', '0', '--', process.execPath, BIN, 'serve', 'everything']);
    const config = path.join(dir, 'servers.json');
    const everything = { command: process.execPath, args: [BIN, 'serve', 'everything'], prefix: false };
    writeFileSync(config, JSON.stringify({ mcpServers: { everything } }));
    targets.gateway = await start(['gateway', config, '--http', '0']);
    const client = `${process.execPath} ${path.join(repoRoot, 'test', 'conformance', 'client.mjs')}`;
    const saved: Array<ScenarioResult & { run: string }> = [];
    for (const run of RUNS) {
      const where =
        run.side === 'server' ? ['--url', targets[run.target ?? 'http']!.url] : ['--command', client];
      const found = await runSuite(run.side, [...where, ...run.args], 300_000, SUITE_02);
      results.set(run.name, found);
      saved.push(...found.map((result) => ({ ...result, run: run.name })));
    }
    saveResults(path.join(repoRoot, '.tools', 'conformance-0.2-more.json'), saved);
  });

  after(() => {
    targets.http?.child.kill();
    targets.stdio?.child.kill();
    targets.gateway?.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const run of RUNS) {
    it(`${run.name}: every check passes or does not apply`, () => {
      const found = results.get(run.name) ?? [];
      assert.ok(found.length >= run.atLeast, `only ${found.length} scenarios reported for ${run.name}`);
      const failed: string[] = [];
      for (const result of found) {
        const checks = verdicts(result);
        if (checks.length === 0) failed.push(`${result.scenario}: ran no check`);
        for (const check of checks) {
          if (check.status === 'SUCCESS' || check.status === 'SKIPPED') continue;
          const key = `${result.scenario}/${check.id}`;
          if (run.side === 'client' && key in expected['client-0.2']) continue;
          failed.push(`${key}: ${check.status} ${check.errorMessage ?? check.description ?? ''}`);
        }
      }
      assert.deepEqual(failed, []);
    });
  }
});
