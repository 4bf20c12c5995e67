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
    if (arg === '--quick') options.quick = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      if (!value) throw new Error('--only needs a suite name');
      options.only.push(...value.split(',').filter(Boolean));
    } else if (arg === '--forks' || arg.startsWith('--forks=')) {
      const value = arg === '--forks' ? argv[++i] : arg.slice('--forks='.length);
      const forks = Number(value);
      // One fork would leave what stays with a fork's processes unmeasured, and its interval too narrow.
      if (!/^\d+$/.test(value ?? '') || forks < 2) {
        throw new Error(`--forks needs a whole number of at least 2 (got ${value ?? 'nothing'})`);
      }
      options.forks = forks;
    } else if (arg === '--calls' || arg.startsWith('--calls=')) {
      const value = arg === '--calls' ? argv[++i] : arg.slice('--calls='.length);
      const calls = Number(value);
      // Fewer calls than are kept in flight would never fill the window the rows are named for.
      if (!/^\d+$/.test(value ?? '') || calls < HTTP_WINDOW) {
        throw new Error(
          `--calls needs a whole number of at least ${HTTP_WINDOW}, the calls kept in flight (got ${value ?? 'nothing'})`,
        );
      }
      options.calls = calls;
    } else throw new Error(`unknown option ${arg}`);
  }
  return options;
}
