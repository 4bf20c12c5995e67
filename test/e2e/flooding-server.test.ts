// A server that floods stdout with junk and never reads stdin: the client's -32700 answers could never
// be delivered, piled up in memory, and closing waited on their flush for ever, so `mcpwire tools` hung.
// The answers are now best effort (dropped while the server does not read), and closing waits on the
// flush no longer than its grace period before it ends the server.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'mcpwire.js');
const flooder = path.join(root, 'test', 'fixtures', 'broken', 'floods-junk.mjs');

describe('a server that floods junk and never reads', { timeout: 30_000 }, () => {
  it('bug: mcpwire tools hung for ever; it fails with exit 3, naming what the server wrote', async () => {
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [bin, 'tools', '--timeout', '1000', '--', process.execPath, flooder],
        { maxBuffer: 64 * 1024 * 1024 },
        (error, _stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
      );
    });
    assert.equal(run.code, 3);
    assert.match(
      run.stderr,
      /the server wrote something that is not JSON-RPC to stdout: "this is not JSON-RPC"/,
    );
  });
});
