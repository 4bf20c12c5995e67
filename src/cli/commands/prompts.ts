// `mcpwire prompts`: list prompts.

import { colour, printJson } from '../format.js';
import { display } from '../target.js';
import { runClientCommand, TARGET_USAGE } from './common.js';

export const usage = `Usage: mcpwire prompts [--json] (-- COMMAND [ARGS] | --config FILE [--server NAME])

Lists every prompt with its arguments.

${TARGET_USAGE}`;

export function run(argv: string[]): Promise<number> {
  return runClientCommand(
    argv,
    {},
    async (target, { json }) => {
      const prompts = target.host.prompts();
      if (json) {
        printJson(
          prompts.map(({ server: _s, originalName, ...prompt }) => ({
            ...prompt,
            name: display(target, prompt.name, originalName),
          })),
        );
        return 0;
      }
      if (prompts.length === 0) process.stdout.write('(no prompts)\n');
      for (const prompt of prompts) {
        const args = (prompt.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ');
        process.stdout.write(`${colour.bold(display(target, prompt.name, prompt.originalName))}(${args})\n`);
        if (prompt.description) process.stdout.write(`  ${colour.dim(prompt.description)}\n`);
      }
      return 0;
    },
    { lists: ['prompts'] },
  );
}
