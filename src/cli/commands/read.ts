// `mcpwire read URI`: read one resource.

import { formatResourceContents, printJson } from '../format.js';
import { UsageError } from '../usage.js';
import { runClientCommand, TARGET_USAGE } from './common.js';

export const usage = `Usage: mcpwire read URI [--json] (-- COMMAND [ARGS] | --config FILE [--server NAME])

Reads a resource and prints its text (binary contents are summarised; use --json for the base64).

${TARGET_USAGE}`;

export function run(argv: string[]): Promise<number> {
  return runClientCommand(
    argv,
    {},
    async (target, { positionals, values, json }) => {
      const [uri] = positionals;
      if (!uri) throw new UsageError('which resource? e.g. mcpwire read file:///tmp/notes.txt -- COMMAND');
      const result = await target.host.readResource(
        uri,
        (values.server as string | undefined) ?? target.single,
      );
      if (json) printJson(result);
      else
        for (const contents of result.contents) process.stdout.write(`${formatResourceContents(contents)}\n`);
      return 0;
    },
    {
      // With one server (or --server) there is nothing to look up; among several, the server is found in
      // their resource lists.
      lists: argv.includes('--') || argv.includes('--url') || argv.includes('--server') ? [] : ['resources'],
    },
  );
}
