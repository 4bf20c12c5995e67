// `npm run bench`'s own output (bench/index.ts): a reader of it that stops early is not an error.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runWithStdoutClosed } from '../support/run-cli.js';

const benchEntry = fileURLToPath(new URL('../../bench/index.ts', import.meta.url));

describe('bench output', () => {
  it('bug: --help piped into a reader that stops early ended in an EPIPE stack trace; it stops quietly', async () => {
    const { code, stderr } = await runWithStdoutClosed(['--import', 'tsx', benchEntry, '--help']);
    assert.equal(stderr, '', 'nothing on stderr: no stack trace, no "Error: write EPIPE"');
    assert.equal(code, 0);
  });
});
