// `mcpwire call TOOL [key=value ...]`: call one tool and print its result.

import { constants } from 'node:os';
import { parseToolArguments } from '../arguments.js';
import { formatContent, printJson } from '../format.js';
import { resolveName } from '../resolve.js';
import { ProgressLine } from '../shell/progress.js';
import { display } from '../target.js';
import { TaskLife } from '../task-life.js';
import { UsageError } from '../usage.js';
import { ExitCode, runClientCommand, TARGET_USAGE } from './common.js';

export const usage = `Usage: mcpwire call TOOL [key=value ...] [--args JSON] [--task] [--json] (-- COMMAND [ARGS] | --config FILE)

Calls a tool. Arguments are key=value pairs, converted to the types of the tool's schema (an object or
array parameter takes JSON: address='{"city": "Paris"}'), or one JSON object with --args (--args @FILE
reads it from a file, --args - from standard input). With several servers, a tool only one of them has
is found by its name; otherwise name it SERVER__TOOL. With --task, the call declares
the tasks extension (protocol 2026-07-28): a server may answer with a task, whose status and progress
are shown on stderr until its result is printed. Ctrl-C (or SIGTERM) while the task runs cancels it
(tasks/cancel) before mcpwire exits, with 128 + the signal's number (130 for Ctrl-C); a second one exits
at once.

Example: mcpwire call list_directory path=. -- npx mcpwire serve fs

${TARGET_USAGE}`;

export function run(argv: string[]): Promise<number> {
  // A signal while a --task call runs aborts the call, which sends tasks/cancel; the command waits for
  // that (onSignal) before the servers are shut down, so that a server that outlives us (--url) does not
  // go on with work nobody will collect.
  const interrupt = new AbortController();
  let taskCall: Promise<unknown> | undefined;
  let endedBy: NodeJS.Signals | undefined;
  return runClientCommand(
    argv,
    { args: { type: 'string' }, task: { type: 'boolean' } },
    async (target, { positionals, values, json }) => {
      const [name, ...pairs] = positionals;
      if (!name) throw new UsageError('which tool? e.g. mcpwire call list_directory path=. -- COMMAND');
      const tools = target.host.tools();
      const tool = resolveName(target, tools, name, 'tool');
      if (!tool) {
        const names = tools.map((t) => display(target, t.name, t.originalName));
        throw new UsageError(`there is no tool "${name}"`, missingToolHint(name, names));
      }
      const shown = { ...tool, name: display(target, tool.name, tool.originalName) };
      const args = parseToolArguments(shown, values.args as string | undefined, pairs);
      const progress = new ProgressLine(process.stderr);
      const life = values.task === true ? new TaskLife(process.stderr) : undefined;
      let taskId: string | undefined;
      const call = target.host.callTool(tool.name, args, {
        onProgress: json ? undefined : (p) => progress.update(p),
        task: life !== undefined,
        onTaskStatus: life
          ? (t) => {
              taskId ??= t.taskId;
              if (!json) life.update(t);
            }
          : undefined,
        signal: life ? interrupt.signal : undefined,
      });
      if (life) taskCall = call.catch(() => undefined);
      let result: Awaited<typeof call>;
      try {
        result = await call.finally(() => life?.clear());
      } catch (error) {
        if (!endedBy) throw error;
        process.stderr.write(
          `mcpwire: ${endedBy}: ${taskId ? `sent tasks/cancel for task ${taskId}` : 'the call was cancelled'}\n`,
        );
        return 128 + (constants.signals[endedBy] ?? 15);
      }
      progress.clear();
      if (life && !life.started && !json)
        process.stderr.write('mcpwire: the server answered at once (no task)\n');
      if (json) printJson(result);
      else {
        for (const block of result.content ?? []) process.stdout.write(`${formatContent(block)}\n`);
        if ((result.content ?? []).length === 0 && result.structuredContent)
          printJson(result.structuredContent);
      }
      if (result.isError) {
        if (!json) process.stderr.write(`mcpwire: the tool "${name}" reported an error\n`);
        return ExitCode.ToolError;
      }
      return ExitCode.Ok;
    },
    {
      // A call costs the handshake, the tool list (for the names and the arguments' types) and the call.
      lists: ['tools'],
      onSignal: (signal) => {
        if (!taskCall) return undefined;
        endedBy = signal;
        interrupt.abort(new Error(`the command line got ${signal}`));
        return taskCall;
      },
      check: ([name]) => {
        if (!name) throw new UsageError('which tool? e.g. mcpwire call list_directory path=. -- COMMAND');
      },
    },
  );
}

/** The tools there are, and a word when the missing one is a write tool of a read-only built-in server. */
function missingToolHint(name: string, names: string[]): string {
  const list = `Tools: ${names.join(', ') || 'none'}`;
  const fsWrite = ['write_file', 'edit_file', 'create_directory', 'move_file'];
  const sqliteWrite = ['write_query', 'create_table'];
  if (fsWrite.includes(name) && names.some((n) => n.endsWith('read_text_file'))) {
    return `${list}\n"${name}" is offered when the filesystem server runs with --write (mcpwire serve fs --write).`;
  }
  if (sqliteWrite.includes(name) && names.some((n) => n.endsWith('read_query'))) {
    return `${list}\n"${name}" is offered when the SQLite server runs with --write (mcpwire serve sqlite DB --write).`;
  }
  return list;
}
