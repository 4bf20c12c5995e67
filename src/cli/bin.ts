// Entry point of the `mcpwire` executable.

import { main } from './main.js';

// A reader that stops early (`mcpwire tools -- ... | head`) closes our stdout: the output is no longer
// wanted, which is not an error. Stop quietly, as the standard tools do, instead of a stack trace from an
// unhandled EPIPE. The servers we started see their stdin end as we exit.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
// The same reader on stderr too (`2>&1 | head`, or stderr closed on its own): progress and logs are no
// longer wanted, but the result on stdout may still be; the command goes on without them. An unhandled
// EPIPE there ended the command with exit code 1 and no result.
process.stderr.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mcpwire: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
