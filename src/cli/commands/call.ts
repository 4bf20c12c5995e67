// `mcpwire call TOOL [key=value ...]`: call one tool and print its result.

import { parseToolArguments } from '../arguments.js';
import { colour, formatContent, printJson } from '../format.js';
import { display, qualify } from '../target.js';
import { UsageError } from '../usage.js';
import { ExitCode, runClientCommand, TARGET_USAGE } from './common.js';

export const usage = `Usage: mcpwire call TOOL [key=value ...] [--args JSON] [--json] (-- COMMAND [ARGS] | --config FILE)

Calls a tool. Arguments are key=value pairs, converted to the types of the tool's schema, or one JSON
object with --args. With several servers, name the tool as SERVER__TOOL.

Example: mcpwire call list_directory path=. -- npx mcpwire serve fs

${TARGET_USAGE}`;

export function run(argv: string[]): Promise<number> {
  return runClientCommand(
    argv,
    { args: { type: 'string' } },
    async (target, { positionals, values, json }) => {
      const [name, ...pairs] = positionals;
      if (!name) throw new UsageError('which tool? e.g. mcpwire call list_directory path=. -- COMMAND');
      const qualified = qualify(target, name);
      const tool = target.host.tools().find((t) => t.name === qualified);
      if (!tool) {
        const names = target.host.tools().map((t) => display(target, t.name, t.originalName));
        throw new UsageError(`there is no tool "${name}"`, `Tools: ${names.join(', ') || 'none'}`);
      }
      const shown = { ...tool, name: display(target, tool.name, tool.originalName) };
      const args = parseToolArguments(shown, values.args as string | undefined, pairs);
      const result = await target.host.callTool(qualified, args, {
        onProgress: json
          ? undefined
          : (p) =>
              process.stderr.write(
                colour.dim(
                  `progress ${p.progress}${p.total ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}\n`,
                ),
              ),
      });
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
  );
}
