// `mcpwire get-prompt NAME [key=value ...]`: render a prompt.

import { argumentsText } from '../arguments.js';
import { colour, formatContent, printJson } from '../format.js';
import { resolveName } from '../resolve.js';
import { UsageError } from '../usage.js';
import { runClientCommand, TARGET_USAGE } from './common.js';

export const usage = `Usage: mcpwire get-prompt NAME [key=value ...] [--args JSON] [--json] (-- COMMAND [ARGS] | --config FILE)

Gets a prompt with its arguments and prints its messages. Arguments are key=value pairs, or one JSON
object of strings with --args (--args @FILE reads it from a file, --args - from standard input); an
argument the prompt does not declare is refused.

${TARGET_USAGE}`;

export function run(argv: string[]): Promise<number> {
  return runClientCommand(
    argv,
    { args: { type: 'string' } },
    async (target, { positionals, values, json }) => {
      const [name, ...pairs] = positionals;
      if (!name) throw new UsageError('which prompt? e.g. mcpwire get-prompt explore -- COMMAND');
      const prompt = resolveName(target, target.host.prompts(), name, 'prompt');
      if (!prompt) {
        const names = target.host.prompts().map((p) => (target.single ? p.originalName : p.name));
        throw new UsageError(`there is no prompt "${name}"`, `Prompts: ${names.join(', ') || 'none'}`);
      }
      const args = promptArguments(values.args as string | undefined, pairs);
      // As call does for tools: an argument the prompt does not declare is refused, not sent silently.
      const declared = prompt.arguments ?? [];
      const unknown = Object.keys(args).filter((key) => !declared.some((a) => a.name === key));
      if (unknown.length > 0) {
        throw new UsageError(
          `the prompt "${name}" has no argument ${unknown.map((k) => `"${k}"`).join(', ')}`,
          `Its arguments: ${declared.map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ') || 'none'}`,
        );
      }
      const missing = declared.filter((a) => a.required && !(a.name in args)).map((a) => a.name);
      if (missing.length > 0) {
        throw new UsageError(
          `the prompt "${name}" needs ${missing.map((k) => `${k}=...`).join(' ')}`,
          `e.g. mcpwire get-prompt ${name} ${declared.map((a) => `${a.name}=...`).join(' ')} -- COMMAND`,
        );
      }
      const result = await target.host.getPrompt(prompt.name, args);
      if (json) printJson(result);
      else {
        if (result.description) process.stdout.write(`${colour.dim(result.description)}\n`);
        for (const message of result.messages) {
          process.stdout.write(`${colour.bold(`${message.role}:`)} ${formatContent(message.content)}\n`);
        }
      }
      return 0;
    },
    {
      lists: ['prompts'],
      check: ([name]) => {
        if (!name) throw new UsageError('which prompt? e.g. mcpwire get-prompt explore -- COMMAND');
      },
    },
  );
}

/** The arguments: one JSON object of strings with --args, or key=value pairs (not both). */
function promptArguments(json: string | undefined, pairs: string[]): Record<string, string> {
  if (json !== undefined) {
    if (pairs.length > 0)
      throw new UsageError('give the arguments as key=value pairs or as --args JSON, not both');
    let parsed: unknown;
    try {
      parsed = JSON.parse(argumentsText(json));
    } catch (error) {
      throw new UsageError(
        `--args is not valid JSON: ${(error as Error).message}`,
        `e.g. --args '{"topic": "sales"}'`,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new UsageError('--args takes a JSON object, e.g. --args \'{"topic": "sales"}\'');
    }
    const args: Record<string, string> = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value !== 'string')
        throw new UsageError(`prompt arguments are strings; "${key}" is ${JSON.stringify(value)}`);
      args[key] = value;
    }
    return args;
  }
  const args: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`"${pair}" is not key=value`);
    args[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return args;
}
