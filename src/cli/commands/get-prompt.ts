// `mcpwire get-prompt NAME [key=value ...]`: render a prompt.

import { colour, formatContent, printJson } from '../format.js';
import { qualify } from '../target.js';
import { UsageError } from '../usage.js';
import { runClientCommand, TARGET_USAGE } from './common.js';

export const usage = `Usage: mcpwire get-prompt NAME [key=value ...] [--json] (-- COMMAND [ARGS] | --config FILE)

Gets a prompt with its arguments and prints its messages.

${TARGET_USAGE}`;

export function run(argv: string[]): Promise<number> {
  return runClientCommand(argv, {}, async (target, { positionals, json }) => {
    const [name, ...pairs] = positionals;
    if (!name) throw new UsageError('which prompt? e.g. mcpwire get-prompt explore -- COMMAND');
    const args: Record<string, string> = {};
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError(`"${pair}" is not key=value`);
      args[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    const result = await target.host.getPrompt(qualify(target, name), args);
    if (json) printJson(result);
    else {
      if (result.description) process.stdout.write(`${colour.dim(result.description)}\n`);
      for (const message of result.messages) {
        process.stdout.write(`${colour.bold(`${message.role}:`)} ${formatContent(message.content)}\n`);
      }
    }
    return 0;
  });
}
