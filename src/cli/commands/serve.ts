// `mcpwire serve <server>`: run one of the built-in servers over stdio.

import { parseArgs } from 'node:util';
import { packageVersion } from '../main.js';
import { parseSize } from '../options.js';
import { UsageError } from '../usage.js';

export const usage = `Usage: mcpwire serve <server> [options]

Runs a built-in MCP server on stdin/stdout.

Servers:
  fs      files under one or more directories, as tools and file:// resources

Options of "serve fs":
  --root DIR               an allowed directory (repeatable; default: the current directory)
  --write                  also offer write_file, edit_file, create_directory, move_file
  --max-message-size SIZE  largest message read or written (default 256MiB)

Example host configuration:
  {"mcpServers": {"files": {"command": "npx", "args": ["mcpwire", "serve", "fs", "--root", "/path/to/dir"]}}}`;

export async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError('which server? e.g. "mcpwire serve fs"', usage);
  if (name !== 'fs') throw new UsageError(`there is no built-in server "${name}"; available: fs`);
  let values: { root?: string[]; write?: boolean; 'max-message-size'?: string };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        root: { type: 'string', multiple: true },
        write: { type: 'boolean' },
        'max-message-size': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire serve --help" for the options.');
  }
  const maxMessageSize = values['max-message-size']
    ? parseSize(values['max-message-size'], '--max-message-size')
    : undefined;
  const { createFsServer } = await import('../../servers/fs/index.js');
  let server: Awaited<ReturnType<typeof createFsServer>>;
  try {
    server = await createFsServer({
      roots: values.root,
      write: values.write,
      maxMessageSize,
      version: packageVersion(),
    });
  } catch (error) {
    throw new UsageError((error as Error).message, 'Give existing directories with --root DIR.');
  }
  server.serveStdio({ maxMessageSize });
  return new Promise<number>(() => {
    // Runs until stdin ends; the stdio transport exits the process then.
  });
}
