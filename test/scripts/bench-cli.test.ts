// `npm run bench`'s options (bench/lib/cli.ts): --forks N asks a suite that judges its targets by intervals
// for N forks of fresh processes, and a count that would make a verdict falsely confident is refused.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseArgs } from '../../bench/lib/cli.js';

describe('bench options', () => {
  it('leaves the forks to each suite unless told', () => {
    assert.deepEqual(parseArgs(['--quick', '--only', 'http-server']), {
      quick: true,
      only: ['http-server'],
      help: false,
    });
  });

  it('takes --forks N and --forks=N', () => {
    assert.equal(parseArgs(['--forks', '8']).forks, 8);
    assert.equal(parseArgs(['--only=http-server', '--forks=2']).forks, 2);
  });

  it('refuses a fork count that is not a whole number of at least 2', () => {
    for (const argv of [
      ['--forks', '1'],
      ['--forks', '0'],
      ['--forks=2.5'],
      ['--forks', 'many'],
      ['--forks'],
    ]) {
      assert.throws(() => parseArgs(argv), /--forks needs a whole number of at least 2/, argv.join(' '));
    }
  });
});
