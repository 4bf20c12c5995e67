// `npm run bench`: builds mcpwire, then runs every suite and prints one table per section; the results go
// to bench/results/latest.json as well, for the README.
//
//   npm run bench                  everything (a few minutes on 2 cores)
//   npm run bench -- --quick       a fast smoke run: small workloads, few runs (to results/partial.json)
//   npm run bench -- --only NAME   only the named suites (comma-separated or repeated)
//   npm run bench -- --forks N     N forks of fresh processes where a suite judges targets by intervals
//                                  (http-server; 4, or 2 with --quick, unless told)
//   npm run bench -- --calls N     N calls in each round of the rows judged against targets (http-server's
//                                  32 in flight; 5000, or 1000 with --quick, unless told)
//
// Adding a suite: write bench/suites/NAME.ts exporting a `Suite` (see bench/lib/suite.ts) and add it to
// SUITES below.

import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from './lib/cli.js';
import { formatMs } from './lib/format.js';
import { renderSection } from './lib/report.js';
import { environment, type SuiteResult, versions, writeResults } from './lib/results.js';
import type { Suite } from './lib/suite.js';
import { canCollectGarbage } from './lib/timing.js';
import { bigRead } from './suites/big-read.js';
import { client } from './suites/client.js';
import { fleet } from './suites/fleet.js';
import { framing } from './suites/framing.js';
import { httpClient } from './suites/http-client.js';
import { httpInstructions } from './suites/http-instructions.js';
import { httpServer } from './suites/http-server.js';
import { inspectPage } from './suites/inspect-page.js';
import { proxy } from './suites/proxy.js';
import { roundtrip } from './suites/roundtrip.js';
import { server } from './suites/server.js';
import { trace } from './suites/trace.js';
import { traceHttp } from './suites/trace-http.js';

const SUITES: Suite[] = [
  framing,
  roundtrip,
  server,
  bigRead,
  client,
  httpClient,
  httpServer,
  httpInstructions,
  trace,
  traceHttp,
  proxy,
  inspectPage,
  fleet,
];

// Only a full run of every suite replaces latest.json, which the README's tables are made from; a quick or
// partial run writes partial.json (not kept in git) so that it cannot overwrite them by accident.
const RESULTS_FILE = fileURLToPath(new URL('./results/latest.json', import.meta.url));
const PARTIAL_FILE = fileURLToPath(new URL('./results/partial.json', import.meta.url));

async function main(): Promise<number> {
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    return 2;
  }
  if (options.help) {
    console.log(
      'usage: npm run bench -- [--quick] [--only NAME[,NAME...]] [--forks N] [--calls N]\n\n' +
        '  --forks N   forks of fresh processes for http-server (4, 2 with --quick): more narrow its intervals\n' +
        '  --calls N   calls in each round of http-server at 32 in flight (5000, 1000 with --quick): longer\n' +
        '              rounds stray less from each other where the host stalls processes for short spells\n\nsuites:',
    );
    const width = Math.max(...SUITES.map((s) => s.name.length));
    for (const suite of SUITES) console.log(`  ${suite.name.padEnd(width)}  ${suite.description}`);
    return 0;
  }
  const unknown = options.only.filter((name) => !SUITES.some((s) => s.name === name));
  if (unknown.length > 0) {
    console.error(
      `bench: no suite named ${unknown.join(', ')}; there are ${SUITES.map((s) => s.name).join(', ')}`,
    );
    return 2;
  }
  if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
    console.error('bench: dist/ is missing; run `npm run build` first (`npm run bench` does)');
    return 2;
  }
  const suites = options.only.length === 0 ? SUITES : SUITES.filter((s) => options.only.includes(s.name));
  const env = environment();
  const load = loadavg()[0]!;
  const header = [
    `mcpwire benchmarks${options.quick ? ' (--quick: small workloads, indicative only)' : ''}`,
    `node ${env.node}, ${env.platform} ${env.arch}, ${env.cores} x ${env.cpu}, ${env.memoryGiB} GiB`,
    `garbage collected between runs: ${canCollectGarbage ? 'yes' : 'no (run node with --expose-gc)'}; load average at start: ${load.toFixed(2)}`,
  ];
  if (load > env.cores * 0.5) {
    header.push(
      `warning: the machine is busy (load ${load.toFixed(2)} on ${env.cores} cores); expect noisy numbers`,
    );
  }
  console.log(`${header.join('\n')}\n`);

  const started = performance.now();
  const results: SuiteResult[] = [];
  for (const suite of suites) {
    const suiteStart = performance.now();
    const sections = await suite.run({
      quick: options.quick,
      forks: options.forks,
      calls: options.calls,
      progress: (message) => process.stderr.write(`${message}\n`),
    });
    const durationMs = performance.now() - suiteStart;
    results.push({ name: suite.name, description: suite.description, durationMs, sections });
    for (const section of sections) console.log(`${renderSection(section)}\n`);
    process.stderr.write(`${suite.name}: done in ${formatMs(durationMs)}\n`);
  }
  const durationMs = performance.now() - started;

  const resultsFile = options.quick || options.only.length > 0 ? PARTIAL_FILE : RESULTS_FILE;
  writeResults(resultsFile, {
    generatedAt: new Date().toISOString(),
    // An unset --forks or --calls (undefined) is left out of the file.
    options: { quick: options.quick, only: options.only, forks: options.forks, calls: options.calls },
    environment: { ...env, loadAverageAtStart: load },
    versions: versions({
      mcpwire: new URL('../package.json', import.meta.url),
      '@modelcontextprotocol/sdk': new URL(
        '../node_modules/@modelcontextprotocol/sdk/package.json',
        import.meta.url,
      ),
    }),
    durationMs,
    suites: results,
  });

  const targets = results.flatMap((r) =>
    r.sections.flatMap((s) => s.rows.filter((row) => row.target).map((row) => ({ row, suite: r.name }))),
  );
  const met = targets.filter((t) => t.row.target!.met).length;
  const undecided = targets.filter((t) => !t.row.target!.met && t.row.target!.undecided);
  const missed = targets.filter((t) => !t.row.target!.met && !t.row.target!.undecided);
  const list = (some: typeof targets) =>
    some.map((t) => `${t.suite} ${t.row.case} (${t.row.target!.text})`).join('; ');
  console.log(
    `targets: ${met} of ${targets.length} met${undecided.length ? `; undecided (the run cannot tell): ${list(undecided)}` : ''}${missed.length ? `; missed: ${list(missed)}` : ''}`,
  );
  console.log(
    `total ${formatMs(durationMs)}; results written to ${path.relative(process.cwd(), resultsFile)}`,
  );
  return 0;
}

// A reader that stops early (`npm run bench -- --help | head`) closes stdout: what is left is not wanted,
// which is not an error. Stop quietly, as the mcpwire CLI does (src/cli/bin.ts), instead of a stack trace
// from an unhandled EPIPE; the servers a suite started see their stdin end as the bench exits.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main();
