#!/usr/bin/env node
// Runs the built CLI: dist/cli/mcpwire.cjs, the whole command line in one script, with V8's code cache
// (src/cli/code-cache.ts). `npm ci` builds it (the "prepare" script); after editing src/, run `npm run build`.
// This file is CommonJS (bin/package.json): an ES module entry would start Node's ES module loader, some
// 10 ms of a server's start-up, before anything of mcpwire ran.
'use strict';
const path = require('node:path');

const script = path.join(__dirname, '..', 'dist', 'cli', 'mcpwire.cjs');
try {
  const cache = require('../dist/cli/code-cache.cjs');
  cache.runWithCodeCache(script, {
    folder: cache.codeCacheFolder(),
    // One cache a command (serve, call...); options alone (--version) and the rest share one.
    name: process.argv[2] ?? '',
  });
} catch (error) {
  const unbuilt =
    (error?.code === 'MODULE_NOT_FOUND' && /code-cache\.cjs/.test(error.message)) ||
    (error?.code === 'ENOENT' && error.path === script);
  if (!unbuilt) throw error;
  process.stderr.write('mcpwire: the build is missing; run "npm run build" (or "npm ci") first.\n');
  process.exit(1);
}
