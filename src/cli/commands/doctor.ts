// `mcpwire doctor -- COMMAND | --url URL`: black-box checks of any MCP server, each against a fresh
// process (stdio) or a fresh session (Streamable HTTP).

import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import {
  type CheckResult,
  type DoctorTarget,
  probeHttp,
  probeStdio,
  runChecks,
  selectChecks,
} from '../../doctor/runner.js';
import { colour, printJson } from '../format.js';
import { splitAtDoubleDash } from '../options.js';
import { parseRemote, ServerFailure } from '../target.js';
import { UsageError } from '../usage.js';
import { report } from './common.js';

export const usage = `Usage: mcpwire doctor [--json] [--only CHECK ...] [--timeout MS] -- COMMAND [ARGS]
       mcpwire doctor [--json] [--only CHECK ...] [--timeout MS] --url URL [--header 'N: V']...

Runs black-box checks against an MCP server: the handshake and version negotiation, JSON-RPC error
codes, notifications, ids, pipelining, batches per revision, the stateless revision, and the validity of
every tool, resource and prompt. Over stdio also framing edge cases, stdout purity and shutdown; over
Streamable HTTP (--url) the binding's rules: sessions, JSON or SSE answers, 202, 406/415/405, the GET
stream, resumption, MCP-Protocol-Version, the Origin check and the 2026-07-28 metadata headers. Each
check starts a fresh server process (or session). For every failure it names the rule, where the rule
is written, and how to fix it. Exit code 1 if any check fails, 2 for a usage error, 3 if the server
cannot be started or reached.

Checks over stdio: ${selectChecks([], 'stdio')
  .map((c) => c.id)
  .join(', ')}
Checks over HTTP: ${selectChecks([], 'http')
  .map((c) => c.id)
  .join(', ')}`;

const MARK: Record<CheckResult['status'], string> = {
  pass: colour.green('PASS'),
  fail: colour.red('FAIL'),
  warn: colour.yellow('WARN'),
  skip: colour.dim('SKIP'),
};

export async function run(argv: string[]): Promise<number> {
  const { before, command } = splitAtDoubleDash(argv);
  let values: { json?: boolean; only?: string[]; timeout?: string; url?: string; header?: string[] };
  try {
    ({ values } = parseArgs({
      args: before,
      options: {
        json: { type: 'boolean' },
        only: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        url: { type: 'string' },
        header: { type: 'string', multiple: true },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire doctor --help".');
  }
  if (command.length > 0 && values.url !== undefined)
    throw new UsageError('give either --url URL or "-- COMMAND", not both');
  if (values.header && values.url === undefined) throw new UsageError('--header goes with --url');
  if (command.length === 0 && values.url === undefined)
    throw new UsageError(
      'which server? e.g. mcpwire doctor -- npx mcpwire serve fs, or mcpwire doctor --url http://127.0.0.1:3000/mcp',
    );
  const target: DoctorTarget =
    values.url !== undefined
      ? parseRemote(values.url, values.header ?? [])
      : { command: command[0]!, args: command.slice(1) };
  const only = (values.only ?? []).flatMap((o) => o.split(','));
  try {
    selectChecks(only, values.url !== undefined ? 'http' : 'stdio');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // Not a number would make every wait endless: NaN never runs out.
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw new UsageError(`--timeout takes a number of milliseconds, such as 2000; got "${values.timeout}"`);
  }
  // A signal ends the run through process.exit, whose hook ends every server a check started (a server
  // that ignores SIGTERM included); the default action would skip that hook and leave them running.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => process.exit(128 + (constants.signals[signal] ?? 15)));
  }
  // One line for a server that cannot be used at all, not the same failure in every check.
  const refused = 'url' in target ? await probeHttp(target, timeoutMs) : await probeStdio(target, timeoutMs);
  if (refused) return report(new ServerFailure(refused.message, refused.hint));
  const named = 'url' in target ? target.url : command.join(' ');
  const printed: boolean[] = [];
  const done: CheckResult[] = [];
  let finished = 0;
  const total = selectChecks(only, 'url' in target ? 'http' : 'stdio').length;
  const tty = !values.json && process.stderr.isTTY === true;
  const progress = () => {
    if (tty) process.stderr.write(`\r\u001b[2K${colour.dim(`checking… ${finished}/${total}`)}`);
  };
  if (!values.json) process.stdout.write(`${colour.bold('mcpwire doctor')} ${named}\n\n`);
  progress();
  const results = await runChecks(target, {
    only,
    timeoutMs,
    // Each result is printed as soon as it and every check before it are done: the report reads in the
    // order of the checks, and a slow server shows its progress instead of a blank screen.
    onResult: (result, index) => {
      finished++;
      done[index] = result;
      if (values.json) return;
      if (tty) process.stderr.write('\r\u001b[2K');
      for (let i = printed.length; done[i] !== undefined; i++) {
        printed.push(true);
        printResult(done[i]!);
      }
      progress();
    },
  });
  if (tty) process.stderr.write('\r\u001b[2K');
  const failed = results.filter((r) => r.status === 'fail').length;
  if (values.json) {
    printJson({ ...('url' in target ? { url: target.url } : { command }), passed: failed === 0, results });
    return failed === 0 ? 0 : 1;
  }
  const count = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
  process.stdout.write(
    `\n${count('pass')} passed, ${failed} failed, ${count('warn')} warnings, ${count('skip')} skipped\n`,
  );
  return failed === 0 ? 0 : 1;
}

function printResult(result: CheckResult): void {
  process.stdout.write(`${MARK[result.status]}  ${result.id.padEnd(26)} ${result.title}\n`);
  for (const detail of result.details) process.stdout.write(`      ${detail.replaceAll('\n', '\n      ')}\n`);
  if (result.status === 'fail' || result.status === 'warn') {
    process.stdout.write(colour.dim(`      rule (${result.rule.source}): ${result.rule.text}\n`));
    if (result.hint) process.stdout.write(colour.cyan(`      fix: ${result.hint}\n`));
  }
}
