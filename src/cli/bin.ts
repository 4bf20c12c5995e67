// Entry point of the `mcpwire` executable.

import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mcpwire: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
