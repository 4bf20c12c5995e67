// The tasks extension's scenarios of the official conformance suite 0.2 (SEP-2663: negotiation,
// lifecycle, wire fields, input requests, dispatch, the required-task error, routing headers, MRTR then a
// task) against `mcpwire serve everything --http`. Suite 0.1.16, which the rest of npm test runs, has no
// task scenarios; this file runs 0.2 for them until the whole suite moves to it.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { conformanceTools, repoRoot, runSuite, verdicts } from '../support/conformance.js';

const SUITE_02 = path.join(
  repoRoot,
  '.tools',
  'conformance-0.2',
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);

const SCENARIOS = [
  'tasks-capability-negotiation',
  'tasks-lifecycle',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-request-headers',
  'tasks-status-notifications',
  'tasks-mrtr-composition',
];

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

describe('conformance 0.2: the tasks extension', () => {
  let server: { child: ChildProcess; url: string };

  before(async () => {
    conformanceTools();
    if (!existsSync(SUITE_02)) {
      throw new Error(
        `conformance suite 0.2 is not installed at ${SUITE_02}: run "node scripts/setup-conformance.mjs"`,
      );
    }
    server = await startServer();
  });

  after(() => {
    server?.child.kill();
  });

  for (const scenario of SCENARIOS) {
    it(`passes ${scenario}`, { timeout: 180_000 }, async () => {
      const [result] = await runSuite(
        'server',
        ['--url', server.url, '--scenario', scenario, '--suite', 'all'],
        150_000,
        SUITE_02,
      );
      assert.ok(result, `the suite saved no result for ${scenario}`);
      const failed = verdicts(result).filter((c) => c.status === 'FAILURE');
      assert.deepEqual(
        failed.map((c) => `${c.id}: ${c.errorMessage ?? ''}`),
        [],
      );
    });
  }
});
