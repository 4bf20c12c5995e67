// `npm run bench`'s own output (bench/index.ts): a reader of it that stops early is not an error, and its
// --help lists the suites in two columns.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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

  it('bug: --help ran a suite name longer than 12 characters into its description; names stand in one column', () => {
    const help = execFileSync(process.execPath, ['--import', 'tsx', benchEntry, '--help'], {
      encoding: 'utf8',
    });
    const rows = help
      .slice(help.indexOf('suites:\n') + 'suites:\n'.length)
      .trimEnd()
      .split('\n');
    assert.ok(
      rows.some((row) => row.trim().startsWith('http-instructions ')),
      help,
    );
    // Every description starts in the same column, two spaces after the longest name at least.
    const starts = rows.map((row) => /^ {2}\S+ {2,}(?=\S)/.exec(row)?.[0].length);
    assert.ok(
      starts.every((at) => at !== undefined && at === starts[0]),
      `${starts.join(', ')}\n${help}`,
    );
  });
});
