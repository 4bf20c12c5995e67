// Node's own modules that only some paths need, loaded when first used rather than with mcpwire: node:http,
// node:https (which brings node:tls) and node:child_process cost a server some 10 ms of start-up before its
// first answer (issue 21), and a stdio server uses none of them. A builtin's require() is synchronous and
// cached, so a caller gets the module as if it had been imported.

import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export function childProcess(): typeof import('node:child_process') {
  return load('node:child_process');
}

export function nodeHttp(): typeof import('node:http') {
  return load('node:http');
}

export function nodeHttps(): typeof import('node:https') {
  return load('node:https');
}

export function nodeCrypto(): typeof import('node:crypto') {
  return load('node:crypto');
}
