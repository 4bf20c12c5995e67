// Command-line options of `npm run bench -- [--quick] [--only NAME[,NAME]] [--forks N] [--calls N]`.

import { HTTP_WINDOW } from './workloads.js';

export interface BenchOptions {
  quick: boolean;
  /** Names of the suites to run; empty for all. */
  only: string[];
  /**
   * How many forks of fresh processes a suite that judges its targets by intervals runs (http-server), when
   * not its own default: more forks narrow an interval that the processes' luck widened.
   */
  forks?: number;
  /**
   * How many calls each round of the rows judged against targets makes (http-server's, at 32 in flight),
   * when not the suite's default: a longer round spreads the host's short stalls over more calls, so one
   * round strays less from another.
   */
  calls?: number;
  help: boolean;
}

export function parseArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { quick: false, only: [], help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // A valued option comes as `--name VALUE` or `--name=VALUE`.
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg : arg.slice(0, equals);
    const value = () => (equals === -1 ? (argv[++i] ?? '') : arg.slice(equals + 1));
    if (arg === '--quick') options.quick = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (name === '--only') {
      const names = value();
      if (!names) throw new Error('--only needs a suite name');
      options.only.push(...names.split(',').filter(Boolean));
    } else if (name === '--forks') {
      // One fork would leave what stays with a fork's processes unmeasured, and its interval too narrow.
      options.forks = wholeNumber('--forks', value(), 2, '');
    } else if (name === '--calls') {
      // Fewer calls than are kept in flight would never fill the window the rows are named for.
      options.calls = wholeNumber('--calls', value(), HTTP_WINDOW, ', the calls kept in flight');
    } else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

/** `value` as a whole number of at least `least`, or an error naming the option and what it got. */
function wholeNumber(name: string, value: string, least: number, why: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < least) {
    throw new Error(`${name} needs a whole number of at least ${least}${why} (got ${value || 'nothing'})`);
  }
  return n;
}
