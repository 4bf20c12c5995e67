// `mcpwire doctor --only apps`: a server whose tools link to a ui:// app resource of the app MIME type
// passes, and so does `serve everything`'s counter app; an app served as plain HTML, or a link to a
// resource that does not exist, fails with the tool and the URI named.

import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { CheckResult } from '../../src/doctor/runner.js';
import { runCli } from '../support/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'apps', 'app-server.mjs');

async function apps(server: string[]): Promise<{ code: number | null; result: CheckResult }> {
  const { code, stdout, stderr } = await runCli(['doctor', '--json', '--only', 'apps', '--', ...server]);
  let results: CheckResult[];
  try {
    results = (JSON.parse(stdout) as { results: CheckResult[] }).results;
  } catch {
    assert.fail(`doctor --json wrote no JSON (exit ${code}); stdout: ${stdout}\nstderr: ${stderr}`);
  }
  const result = results.find((r) => r.id === 'apps');
  assert.ok(result, 'the report has no apps result');
  return { code, result };
}

describe('doctor: MCP Apps', () => {
  it('passes a server that serves its app right', { timeout: 60_000 }, async () => {
    const { code, result } = await apps([process.execPath, FIXTURE, 'good']);
    assert.equal(result.status, 'pass', JSON.stringify(result));
    assert.equal(code, 0);
  });

  it("passes serve everything's counter app", { timeout: 60_000 }, async () => {
    const { result } = await apps([
      process.execPath,
      path.join(ROOT, 'bin', 'mcpwire.js'),
      'serve',
      'everything',
    ]);
    assert.equal(result.status, 'pass', JSON.stringify(result));
  });

  it('fails an app served as plain text/html', { timeout: 60_000 }, async () => {
    const { code, result } = await apps([process.execPath, FIXTURE, 'wrong-type']);
    assert.equal(result.status, 'fail');
    assert.match(
      JSON.stringify(result),
      /ui:\/\/demo\/app\.html is listed as \\"text\/html\\", not text\/html;profile=mcp-app/,
    );
    assert.equal(code, 1);
  });

  it('fails a tool linked to a ui:// resource that does not exist', { timeout: 60_000 }, async () => {
    const { result } = await apps([process.execPath, FIXTURE, 'missing']);
    assert.equal(result.status, 'fail');
    assert.match(
      JSON.stringify(result),
      /tool \\"show\\" links ui:\/\/demo\/gone\.html, which could not be read/,
    );
  });
});
