// `mcpwire tools`: list the tools of one or more servers.

import { colour, printJson, summarizeArguments } from '../format.js';
import { display } from '../target.js';
import { runClientCommand, TARGET_USAGE } from './common.js';

export const usage = `Usage: mcpwire tools [--json] (-- COMMAND [ARGS] | --config FILE [--server NAME])

Lists every tool with its arguments.

${TARGET_USAGE}`;

export function run(argv: string[]): Promise<number> {
  return runClientCommand(
    argv,
    {},
    async (target, { json }) => {
      const tools = target.host.tools();
      if (json) {
        printJson(
          tools.map(({ server: _s, originalName, ...tool }) => ({
            ...tool,
            name: display(target, tool.name, originalName),
          })),
        );
        return 0;
      }
      if (tools.length === 0) process.stdout.write('(no tools)\n');
      for (const tool of tools) {
        const name = display(target, tool.name, tool.originalName);
        process.stdout.write(`${colour.bold(name)}(${summarizeArguments(tool.inputSchema)})\n`);
        const about =
          tool.title && tool.description
            ? `${tool.title}: ${tool.description}`
            : (tool.description ?? tool.title);
        if (about) process.stdout.write(`  ${colour.dim(about)}\n`);
      }
      return 0;
    },
    { lists: ['tools'] },
  );
}
