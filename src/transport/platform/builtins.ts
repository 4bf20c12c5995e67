// Node's own modules that only some paths need, loaded when first used rather than with mcpwire: node:http,
// node:https (which brings node:tls) and node:child_process cost a server some 10 ms of start-up before its
// first answer (issue 21), and a stdio server uses none of them. Loading is synchronous and cached, so a
// caller gets the module as if it had been imported.
//
// process.getBuiltinModule (Node 20.16 and later, hence the package's engines) loads one without an ES
// module namespace: importing a builtin makes one, and reading its every export loads more internals
// (node:buffer's File, node:module's source maps), which a server paid for at start-up.

const load = (id: string): unknown => process.getBuiltinModule(id);

export function childProcess(): typeof import('node:child_process') {
  return load('node:child_process') as typeof import('node:child_process');
}

export function nodeHttp(): typeof import('node:http') {
  return load('node:http') as typeof import('node:http');
}

export function nodeHttps(): typeof import('node:https') {
  return load('node:https') as typeof import('node:https');
}

export function nodeUrl(): typeof import('node:url') {
  return load('node:url') as typeof import('node:url');
}

export function nodeCrypto(): typeof import('node:crypto') {
  return load('node:crypto') as typeof import('node:crypto');
}

/** node:buffer's isUtf8, for the decoders (node:buffer itself is loaded with every process). */
export const isUtf8 = (load('node:buffer') as typeof import('node:buffer')).isUtf8;

export function nodeFsPromises(): typeof import('node:fs/promises') {
  return load('node:fs/promises') as typeof import('node:fs/promises');
}
