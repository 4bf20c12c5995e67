// Command-line options of `npm run bench -- [--quick] [--only NAME[,NAME]] [--forks N]`.

export interface BenchOptions {
  quick: boolean;
  /** Names of the suites to run; empty for all. */
  only: string[];
  /**
   * How many forks of fresh processes a suite that judges its targets by intervals runs (http-server), when
   * not its own default: more forks narrow an interval that the processes' luck widened.
   */
  forks?: number;
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
    } else throw new Error(`unknown option ${arg}`);
  }
  return options;
}
