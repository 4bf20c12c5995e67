// `npm run bench`'s options (bench/lib/cli.ts): --forks N asks a suite that judges its targets by intervals
// for N forks of fresh processes, and a count that would make a verdict falsely confident is refused;
// --calls N lengthens its rounds, and a round that could not fill the window in flight is refused.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseArgs } from '../../bench/lib/cli.js';

describe('bench options', () => {
  it('leaves the forks and the calls to each suite unless told', () => {
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
    refusesEach(
      [['--forks', '1'], ['--forks', '0'], ['--forks=2.5'], ['--forks', 'many'], ['--forks']],
      /--forks needs a whole number of at least 2/,
    );
  });

  it('takes --calls N and --calls=N', () => {
    assert.equal(parseArgs(['--calls', '20000']).calls, 20000);
    const both = parseArgs(['--forks=12', '--calls=32']);
    assert.equal(both.forks, 12);
    assert.equal(both.calls, 32);
  });

  it('refuses a call count that is not a whole number or would not fill the 32 calls in flight', () => {
    refusesEach(
      [['--calls', '31'], ['--calls', '0'], ['--calls=1e4'], ['--calls', '5000.5'], ['--calls']],
      /--calls needs a whole number of at least 32, the calls kept in flight/,
    );
  });
});

/** Each command line is refused with `message`. */
function refusesEach(argvs: string[][], message: RegExp): void {
  for (const argv of argvs) assert.throws(() => parseArgs(argv), message, argv.join(' '));
}
