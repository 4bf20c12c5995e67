// `mcpwire serve <server>`: run one of the built-in servers over stdio.

import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { AuthorizationOptions } from '../../server/authorization.js';
import type { McpServer } from '../../server/server.js';
import { parseSize } from '../options.js';
import { packageVersion } from '../package-info.js';
import { UsageError } from '../usage.js';

export const usage = `Usage: mcpwire serve <server> [options]

Runs a built-in MCP server on stdin/stdout.

Servers:
  fs          files under one or more directories, as tools and file:// resources
  sqlite      a SQLite database file: tables, schema and queries
  everything  every conformance-suite fixture and the classic demo tools, for testing clients

Options of every server:
  --http PORT              serve Streamable HTTP on PORT (0: any free port) instead of stdio
  --host ADDR              the address to bind with --http (default 127.0.0.1, which only answers
                           requests addressed to localhost)
  --auth-issuer URL        with --http: require OAuth access tokens (JWTs) from this authorization
                           server; the protected resource metadata is served at
                           /.well-known/oauth-protected-resource/mcp
  --auth-audience URI      the audience tokens must name (default: the server's own URL)
  --auth-scopes SCOPE      a scope every request needs (repeatable, or several separated by spaces)
  --redis URL              with --http: serve as one instance of a fleet on this Redis
                           (redis://127.0.0.1:6379): sessions, SSE events and messages between
                           instances are kept there, so that any instance serves any request
  --request-state-key KEY  with --http: the key that signs 2026-07-28 requestState (also
                           MCPWIRE_REQUEST_STATE_KEY; repeat it to rotate: the first signs, every
                           one verifies). Every instance of a fleet needs the same keys
  --sessionless            with --http: serve handshake-era requests without sessions (no
                           Mcp-Session-Id; no GET stream, server-to-client requests or subscriptions)

Options of "serve fs":
  --root DIR               an allowed directory (repeatable; default: the current directory)
  --write                  also offer write_file, edit_file, create_directory, move_file
  --max-message-size SIZE  largest message read or written (default 256MiB)

Usage and options of "serve sqlite" (it needs the better-sqlite3 package: npm install better-sqlite3):
  mcpwire serve sqlite DB_FILE [--write] [--create]
  --write                  open the database for writing; also offer write_query and create_table
  --create                 make a new, empty database if DB_FILE does not exist
  --max-rows N             most rows a query returns (default 10000)
  --query-timeout MS       time limit of a statement, preparing it included, and the most a call may
                           ask for (default 30000)
  --max-query-memory SIZE  memory a statement's process may use, Node included (default 512MiB)
  --max-message-size SIZE  largest message read or written (default 256MiB)

Example host configuration:
  {"mcpServers": {
    "files": {"command": "npx", "args": ["mcpwire", "serve", "fs", "--root", "/path/to/dir"]},
    "db": {"command": "npx",
           "args": ["-p", "mcpwire", "-p", "better-sqlite3", "mcpwire", "serve", "sqlite", "/path/to/data.db"]}
  }}`;

const SERVERS = ['fs', 'sqlite', 'everything'];

/** The options every server takes: where to serve. */
const TRANSPORT_OPTIONS = {
  http: { type: 'string' },
  host: { type: 'string' },
  'max-message-size': { type: 'string' },
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string' },
  'auth-scopes': { type: 'string', multiple: true },
  redis: { type: 'string' },
  sessionless: { type: 'boolean' },
  'request-state-key': { type: 'string', multiple: true },
} as const;

interface TransportValues {
  http?: string;
  host?: string;
  'max-message-size'?: string;
  'auth-issuer'?: string;
  'auth-audience'?: string;
  'auth-scopes'?: string[];
  redis?: string;
  sessionless?: boolean;
  'request-state-key'?: string[];
}

/** The requestState keys of --request-state-key (or MCPWIRE_REQUEST_STATE_KEY), checked for sense. */
function requestStateKeys(values: TransportValues, name: string): string[] {
  const keys = [...(values['request-state-key'] ?? [])];
  const fromEnv = process.env.MCPWIRE_REQUEST_STATE_KEY;
  if (keys.length === 0 && fromEnv) keys.push(fromEnv);
  if (keys.some((key) => key.length < 16)) {
    throw new UsageError(
      '--request-state-key needs at least 16 characters (a random secret every instance shares)',
    );
  }
  if (values.redis !== undefined && keys.length === 0) {
    process.stderr.write(
      `mcpwire serve ${name}: --redis without --request-state-key: each instance signs 2026-07-28 requestState with a key of its own, so a round answered on another instance is refused\n`,
    );
  }
  return keys;
}

/** The --auth-* options as authorization, or undefined when none is given (checked for sense here). */
function authorizationOf(values: TransportValues): AuthorizationOptions | undefined {
  const issuer = values['auth-issuer'];
  const audience = values['auth-audience'];
  const scopes = (values['auth-scopes'] ?? []).flatMap((s) => s.split(/[\s,]+/)).filter(Boolean);
  if (issuer === undefined) {
    if (audience !== undefined || scopes.length > 0) {
      throw new UsageError('--auth-audience and --auth-scopes go with --auth-issuer URL');
    }
    return undefined;
  }
  if (values.http === undefined) {
    throw new UsageError(
      '--auth-issuer goes with --http PORT',
      'Authorization is for remote servers; a stdio server gets its credentials from its environment.',
    );
  }
  for (const [flag, value] of [
    ['--auth-issuer', issuer],
    ['--auth-audience', audience],
  ] as const) {
    if (value === undefined) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(`${flag} takes an absolute URL; got "${value}"`);
    }
    if (url.protocol !== 'https:' && !isLoopback(url.hostname)) {
      throw new UsageError(`${flag} must be an https URL (http only on loopback); got "${value}"`);
    }
  }
  return { issuer, resource: audience, requiredScopes: scopes.length > 0 ? scopes : undefined };
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\./.test(hostname);
}

export async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError('which server? e.g. "mcpwire serve fs"', usage);
  if (name === 'fs') return serveFs(rest);
  if (name === 'sqlite') return serveSqlite(rest);
  if (name === 'everything') return serveEverything(rest);
  throw new UsageError(`there is no built-in server "${name}"; available: ${SERVERS.join(', ')}`);
}

function parse<T>(args: string[], options: NonNullable<ParseArgsConfig['options']>, positionals: boolean) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: positionals }) as unknown as {
      values: T;
      positionals: string[];
    };
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire serve --help" for the options.');
  }
}

/**
 * Serves over stdio (until stdin ends: serveStdio exits the process then) or, with --http, over
 * Streamable HTTP until the process is stopped. The URL goes to stderr, never to stdout.
 */
async function serveOn(server: McpServer, values: TransportValues, name: string): Promise<number> {
  const maxMessageSize = values['max-message-size']
    ? parseSize(values['max-message-size'], '--max-message-size')
    : undefined;
  const authorization = authorizationOf(values);
  if (values.http === undefined) {
    if (values.host !== undefined) throw new UsageError('--host goes with --http PORT');
    if (values.redis !== undefined) throw new UsageError('--redis goes with --http PORT');
    if (values.sessionless) throw new UsageError('--sessionless goes with --http PORT');
    if (values['request-state-key'] !== undefined) {
      throw new UsageError(
        '--request-state-key goes with --http PORT',
        'A stdio server is one process: nothing else checks its requestState.',
      );
    }
    server.serveStdio({ maxMessageSize });
    return new Promise<number>(() => {});
  }
  const port = Number(values.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--http takes a port number from 0 to 65535; got "${values.http}"`);
  }
  if (values.redis !== undefined && !/^rediss?:\/\//.test(values.redis)) {
    throw new UsageError(`--redis takes a URL such as redis://127.0.0.1:6379; got "${values.redis}"`);
  }
  const keys = requestStateKeys(values, name);
  let listener: Awaited<ReturnType<McpServer['serveHttp']>>;
  try {
    listener = await server.serveHttp({
      port,
      host: values.host,
      maxBodySize: maxMessageSize,
      authorization,
      redis: values.redis,
      sessionless: values.sessionless,
      requestState: keys.length > 0 ? { keys } : undefined,
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FLEET_UNAVAILABLE') {
      throw new UsageError((error as Error).message);
    }
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${code ?? (error as Error).message}`,
      code === 'EADDRINUSE'
        ? 'Another program uses that port; pick another, or 0 for any free port.'
        : undefined,
    );
  }
  const member = listener.instanceId ? ` as fleet instance ${listener.instanceId}` : '';
  process.stderr.write(`mcpwire serve ${name}: listening on ${listener.url}${member}\n`);
  if (authorization) {
    process.stderr.write(
      `mcpwire serve ${name}: tokens from ${authorization.issuer} required; metadata at ${new URL(listener.url).origin}/.well-known/oauth-protected-resource${new URL(listener.url).pathname}\n`,
    );
  }
  const stop = () => void listener.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => {});
}

async function serveEverything(rest: string[]): Promise<number> {
  const { values } = parse<TransportValues>(rest, TRANSPORT_OPTIONS, false);
  const { createEverythingServer } = await import('../../servers/everything/index.js');
  return serveOn(createEverythingServer({ version: packageVersion() }), values, 'everything');
}

async function serveFs(rest: string[]): Promise<number> {
  const { values } = parse<{ root?: string[]; write?: boolean } & TransportValues>(
    rest,
    {
      root: { type: 'string', multiple: true },
      write: { type: 'boolean' },
      ...TRANSPORT_OPTIONS,
    },
    false,
  );
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
  return serveOn(server, values, 'fs');
}

async function serveSqlite(rest: string[]): Promise<number> {
  const { values, positionals } = parse<
    {
      write?: boolean;
      create?: boolean;
      'max-rows'?: string;
      'query-timeout'?: string;
      'max-query-memory'?: string;
    } & TransportValues
  >(
    rest,
    {
      write: { type: 'boolean' },
      create: { type: 'boolean' },
      'max-rows': { type: 'string' },
      'query-timeout': { type: 'string' },
      'max-query-memory': { type: 'string' },
      ...TRANSPORT_OPTIONS,
    },
    true,
  );
  const [file, ...extra] = positionals;
  if (file === undefined) {
    throw new UsageError(
      'which database? e.g. "mcpwire serve sqlite data.db"',
      'Add --create to make a new one.',
    );
  }
  if (extra.length > 0) {
    throw new UsageError(
      `serve sqlite takes one database file; got also ${extra.map((e) => `"${e}"`).join(', ')}`,
    );
  }
  const { createSqliteServer, SqliteOpenError } = await import('../../servers/sqlite/index.js');
  let sqlite: Awaited<ReturnType<typeof createSqliteServer>>;
  try {
    sqlite = await createSqliteServer({
      file,
      write: values.write,
      create: values.create,
      maxRows: positiveInteger(values['max-rows'], '--max-rows'),
      queryTimeoutMs: positiveInteger(values['query-timeout'], '--query-timeout'),
      maxQueryMemory: values['max-query-memory']
        ? parseSize(values['max-query-memory'], '--max-query-memory')
        : undefined,
      maxMessageSize: values['max-message-size']
        ? parseSize(values['max-message-size'], '--max-message-size')
        : undefined,
      version: packageVersion(),
    });
  } catch (error) {
    if (error instanceof SqliteOpenError) throw new UsageError(error.message, error.hint);
    if (error instanceof RangeError && values['max-query-memory'] !== undefined) {
      throw new UsageError(error.message.replace('maxQueryMemory', '--max-query-memory'));
    }
    throw error;
  }
  return serveOn(sqlite.server, values, 'sqlite');
}

function positiveInteger(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`${option} takes a whole number of at least 1; got "${text}"`);
  }
  return value;
}
