// `mcpwire doctor -- COMMAND`: black-box checks of any stdio MCP server, each against a fresh process.

import { parseArgs } from 'node:util';
import { allChecks } from '../../doctor/checks/index.js';
import { type CheckResult, runChecks, selectChecks } from '../../doctor/runner.js';
import { colour, printJson } from '../format.js';
import { splitAtDoubleDash } from '../options.js';
import { UsageError } from '../usage.js';

export const usage = `Usage: mcpwire doctor [--json] [--only CHECK ...] [--timeout MS] -- COMMAND [ARGS]

Runs black-box checks against a stdio MCP server: the handshake and version negotiation, JSON-RPC error
codes, notifications, ids, pipelining, framing edge cases, stdout purity, shutdown, batches per revision,
and the validity of every tool, resource and prompt. Each check starts a fresh server process. For every
failure it names the rule, where the rule is written, and how to fix it. Exit code 1 if any check fails.

Checks: ${allChecks.map((c) => c.id).join(', ')}`;

const MARK: Record<CheckResult['status'], string> = {
  pass: colour.green('PASS'),
  fail: colour.red('FAIL'),
  warn: colour.yellow('WARN'),
  skip: colour.dim('SKIP'),
};

export async function run(argv: string[]): Promise<number> {
  const { before, command } = splitAtDoubleDash(argv);
  let values: { json?: boolean; only?: string[]; timeout?: string };
  try {
    ({ values } = parseArgs({
      args: before,
      options: {
        json: { type: 'boolean' },
        only: { type: 'string', multiple: true },
        timeout: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire doctor --help".');
  }
  if (command.length === 0) throw new UsageError('which server? e.g. mcpwire doctor -- npx mcpwire serve fs');
  const only = (values.only ?? []).flatMap((o) => o.split(','));
  try {
    selectChecks(only);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // Not a number would make every wait endless: NaN never runs out.
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw new UsageError(`--timeout takes a number of milliseconds, such as 2000; got "${values.timeout}"`);
  }
  const [program, ...args] = command;
  const results = await runChecks({ command: program!, args }, { only, timeoutMs });
  const failed = results.filter((r) => r.status === 'fail').length;
  if (values.json) {
    printJson({ command, passed: failed === 0, results });
    return failed === 0 ? 0 : 1;
  }
  process.stdout.write(`${colour.bold('mcpwire doctor')} ${command.join(' ')}\n\n`);
  for (const result of results) {
    process.stdout.write(`${MARK[result.status]}  ${result.id.padEnd(26)} ${result.title}\n`);
    for (const detail of result.details)
      process.stdout.write(`      ${detail.replaceAll('\n', '\n      ')}\n`);
    if (result.status === 'fail' || result.status === 'warn') {
      process.stdout.write(colour.dim(`      rule (${result.rule.source}): ${result.rule.text}\n`));
      if (result.hint) process.stdout.write(colour.cyan(`      fix: ${result.hint}\n`));
    }
  }
  const count = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
  process.stdout.write(
    `\n${count('pass')} passed, ${failed} failed, ${count('warn')} warnings, ${count('skip')} skipped\n`,
  );
  return failed === 0 ? 0 : 1;
}
