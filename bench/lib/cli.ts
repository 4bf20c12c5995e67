// Command-line options of `npm run bench -- [--quick] [--only NAME[,NAME]]`.

export interface BenchOptions {
  quick: boolean;
  /** Names of the suites to run; empty for all. */
  only: string[];
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
    } else throw new Error(`unknown option ${arg}`);
  }
  return options;
}
