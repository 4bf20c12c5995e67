#!/usr/bin/env node
// Runs the built CLI. `npm ci` builds it (the "prepare" script); after editing src/, run `npm run build`.
import('../dist/cli/bin.js').catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND') {
    process.stderr.write('mcpwire: the build is missing; run "npm run build" (or "npm ci") first.\n');
  } else {
    process.stderr.write(`mcpwire: ${error?.message ?? error}\n`);
  }
  process.exitCode = 1;
});
