// The official conformance suite's server scenarios (the whole active suite) against
// `mcpwire serve everything --http`.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot, runSuite, type ScenarioResult, saveResults, verdicts } from '../support/conformance.js';

const expected = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'expected-failures.json'), 'utf8'),
) as {
  server: Record<string, string>;
};

/** Starts the server on a free port and resolves with its URL, as it announces it on stderr. */
function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'bin', 'mcpwire.js'), 'serve', 'everything', '--http', '0'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
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

describe('conformance: server scenarios', () => {
  let server: { child: ChildProcess; url: string };
  const results = new Map<string, ScenarioResult>();

  before(async () => {
    server = await startServer();
    for (const result of await runSuite('server', ['--url', server.url, '--suite', 'active'])) {
      results.set(result.scenario, result);
    }
    saveResults(path.join(repoRoot, '.tools', 'conformance-server.json'), [...results.values()]);
  });

  after(() => {
    server?.child.kill();
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
