// Start-up (issue 21): a stdio server answers initialize without loading node:crypto, node:http,
// node:https (and node:tls) or node:child_process, which cost it start-up time and which it does not need
// before its first answer. Both the library (a minimal McpServer) and `mcpwire serve everything` as a host
// spawns it. Needs the build (`npm run build`): both run dist/.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const REPORTER = path.join(ROOT, 'test', 'fixtures', 'startup', 'report-builtins.mjs');

/** Runs the server, answers initialize, ends its stdin; resolves with the watched builtins it loaded. */
function loadedBy(args: string[]): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', REPORTER, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      // The answer to initialize is in: whatever was loaded for it is loaded now.
      if (stdout.includes('\n')) child.stdin.end();
    });
    child.on('error', reject);
    child.on('exit', () => {
      const match = /loaded builtins: (\[.*\])/.exec(stderr);
      if (!stdout.includes('"result"') || !match) {
        reject(new Error(`no answer or no report; stdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      resolve(JSON.parse(match[1]!) as string[]);
    });
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })}\n`,
    );
  });
}

describe('start-up of a stdio server', { timeout: 30_000 }, () => {
  before(() => {
    assert.ok(existsSync(path.join(ROOT, 'dist', 'index.js')), 'run "npm run build" first');
  });

  it('a minimal McpServer answers initialize without node:crypto, node:http(s) or node:child_process', async () => {
    const server = path.join(ROOT, 'test', 'fixtures', 'startup', 'json-schema-server.mjs');
    assert.deepEqual(await loadedBy([server]), []);
  });

  it('mcpwire serve everything answers initialize without them too', async () => {
    assert.deepEqual(await loadedBy([path.join(ROOT, 'bin', 'mcpwire.js'), 'serve', 'everything']), []);
  });
});
