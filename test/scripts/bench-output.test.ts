// `npm run bench`'s own output (bench/index.ts): a reader of it that stops early is not an error.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const benchEntry = fileURLToPath(new URL('../../bench/index.ts', import.meta.url));

describe('bench output', () => {
  it('bug: --help piped into a reader that stops early ended in an EPIPE stack trace; it stops quietly', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', benchEntry, '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader is gone before the bench writes a byte, as `| head -0` would be.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(stderr, '', 'nothing on stderr: no stack trace, no "Error: write EPIPE"');
    assert.equal(code, 0);
  });
});
