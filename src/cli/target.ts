// Which servers a command talks to: one stdio command after "--", or servers from a configuration file
// (--config FILE [--server NAME]). Either way they run under an McpHost, so one code path serves both.

import path from 'node:path';
import type { ClientAnswerCallbacks } from '../client/answers.js';
import type { McpClient } from '../client/client.js';
import { ConfigError, type HostConfig, loadConfig } from '../host/config.js';
import { type HostEvent, type HostOptions, McpHost } from '../host/host.js';
import { FileTokenStore } from '../transport/http/auth/file-token-store.js';
import { OAuthClient } from '../transport/http/auth/oauth-client.js';
import { StrayOutput } from './stray-output.js';
import { UsageError } from './usage.js';

export interface TargetOptions {
  config?: string;
  server?: string;
  /** The command and its arguments, from after "--". */
  command: string[];
  /** A remote server instead (--url), with headers for every request (--header 'Name: value'). */
  url?: string;
  headers?: string[];
  /** Print the servers' stderr as it comes (otherwise only its tail, when a server fails). */
  verbose?: boolean;
  timeout?: number;
  /** The handshake's own timeout (--handshake-timeout); --timeout's, or 30 s, when not given. */
  handshakeTimeout?: number;
  /** Log messages from the servers. */
  onLog?: (server: string, level: string, data: unknown) => void;
  /** How the command answers a server's sampling and elicitation requests (the shell asks its person). */
  answers?: ClientAnswerCallbacks;
  /** Called with the host as soon as it exists, before its servers start (to end them on a signal). */
  onHost?: (host: McpHost) => void;
  /** Everything the host reports (a crash, a restart), for a command that lives on. */
  onEvent?: (event: HostEvent) => void;
  /** The lists the command needs (all unless told), and whether it follows their changes (the shell). */
  lists?: HostOptions['lists'];
  watchLists?: boolean;
  /** Wraps each server's transport (inspect watches the wire through it). */
  wrapTransport?: HostOptions['wrapTransport'];
  /** Each server's stderr as it comes (instead of only its tail, or a copy with --verbose). */
  onStderr?: (server: string, text: string) => void;
}

/** A started host, and whether names need the server prefix (only with several servers). */
export interface Target {
  host: McpHost;
  single: string | undefined;
  /** The servers as configured (what doctor needs to start one afresh). */
  config: HostConfig;
}

/** Server failed or misbehaved: exit code 3. */
export class ServerFailure extends Error {
  override readonly name = 'ServerFailure';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

let store: FileTokenStore | undefined;
/** The command line's token file (~/.mcpwire/auth.json, or $MCPWIRE_AUTH_FILE), one for every server. */
export function tokenStore(): FileTokenStore {
  store ??= new FileTokenStore();
  return store;
}

export async function openTarget(options: TargetOptions, version: string): Promise<Target> {
  const config = await targetConfig(options);
  const names = Object.keys(config.servers);
  const stray = new StrayOutput();
  const handshake = handshakeTimeout(options);
  const host = new McpHost(config, {
    clientInfo: { name: 'mcpwire-cli', version },
    // A remote server that wants OAuth gets the tokens `mcpwire login` stored (refreshed as they
    // expire); with none, the command says to log in. Nobody is asked to log in in the middle of a command.
    authorization: (_server, url) => new OAuthClient({ server: url, store: tokenStore() }),
    healthInterval: 0,
    restart: false,
    lists: options.lists,
    watchLists: options.watchLists,
    wrapTransport: options.wrapTransport,
    // One --timeout governs the whole command, the handshake included (it always waited 30 s), unless
    // --handshake-timeout gives the handshake a timeout of its own.
    startTimeout: handshake.ms,
    stderr: options.onStderr ?? (options.verbose ? 'inherit' : 'pipe'),
    onEvent: (event) => {
      options.onEvent?.(event);
      if (event.type === 'log') options.onLog?.(event.server, event.level, event.data);
      // Said at once, in every command: a stray line on stdout used to be found out only when the
      // request it broke timed out.
      if (
        event.type === 'problem' &&
        (event.problem.kind === 'parse-error' || event.problem.kind === 'framing')
      ) {
        stray.report(
          names.length > 1 ? `server "${event.server}"` : 'the server',
          String(event.problem.detail ?? ''),
        );
      }
    },
    client: { timeout: options.timeout, ...options.answers },
  });
  options.onHost?.(host);
  const statuses = await host.start();
  const failed = statuses.filter((s) => s.state !== 'ready');
  if (failed.length === names.length) {
    await host.shutdown();
    const [first] = failed;
    throw new ServerFailure(
      failed
        .map((s) => `server "${s.name}" failed to start: ${withoutLibraryAdvice(s.error ?? s.state)}`)
        .join('\n'),
      first?.hint ??
        (stray.count > 0
          ? 'A stdio server must write only JSON-RPC messages to stdout (see above); logs belong on stderr.'
          : first?.error?.includes('no such command')
            ? 'Check the command after "--" (or in the configuration) and that it is installed.'
            : first?.error?.includes('timed out')
              ? `Raise ${handshake.flag} (in ms; it was ${handshake.ms}) if the server needs longer to start, or run with --verbose to see its stderr.`
              : 'Run with --verbose to see everything the server writes to stderr.'),
    );
  }
  for (const status of failed)
    process.stderr.write(
      `mcpwire: server "${status.name}" failed to start: ${withoutLibraryAdvice(status.error ?? status.state)}\n`,
    );
  return { host, single: names.length === 1 ? names[0] : undefined, config };
}

/**
 * A library error's message without its advice to library users (`raise the "timeout" option`): on the
 * command line the hint names the flag instead.
 */
export function withoutLibraryAdvice(message: string): string {
  return message.replace(/; raise the "\w+" option to wait longer$/, '');
}

/** How long the handshake may take, and the option that says so (the one to name when it runs out). */
function handshakeTimeout(options: TargetOptions): { ms: number; flag: string } {
  if (options.handshakeTimeout !== undefined)
    return { ms: options.handshakeTimeout, flag: '--handshake-timeout' };
  if (options.timeout !== undefined) return { ms: options.timeout, flag: '--timeout' };
  return { ms: 30_000, flag: '--handshake-timeout' };
}

async function targetConfig(options: TargetOptions): Promise<HostConfig> {
  if (options.url !== undefined) return remoteTarget(options);
  if (options.headers && options.headers.length > 0)
    throw new UsageError('--header goes with --url (a configuration has "headers" of its own)');
  if (options.command.length > 0) {
    if (options.config) throw new UsageError('give either --config FILE or "-- COMMAND", not both');
    const [command, ...args] = options.command;
    const name = serverName(options.command);
    return { servers: { [name]: { command: command!, args, env: {}, cwd: undefined, disabled: false } } };
  }
  if (!options.config) {
    throw new UsageError(
      'which server? Give a command after "--" or a configuration with --config FILE',
      'Example: mcpwire tools -- npx mcpwire serve fs --root .',
    );
  }
  let config: HostConfig;
  try {
    config = await loadConfig(options.config);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  if (options.server) {
    const entry = config.servers[options.server];
    if (!entry) {
      throw new UsageError(
        `${options.config} has no server "${options.server}"; it has: ${Object.keys(config.servers).join(', ')}`,
      );
    }
    return { servers: { [options.server]: entry } };
  }
  if (Object.keys(config.servers).length === 0)
    throw new UsageError(`${options.config} configures no servers`);
  return config;
}

/** --url URL and its --header 'Name: value' options, checked; a UsageError that shows the form. */
export function parseRemote(url: string, given: string[]): { url: string; headers: Record<string, string> } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(url)} is not a URL`, 'e.g. --url http://127.0.0.1:3000/mcp');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError(`--url must be http:// or https://, not ${parsed.protocol}`);
  const headers: Record<string, string> = {};
  for (const header of given) {
    const colon = header.indexOf(':');
    const name = colon > 0 ? header.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(
        `--header ${JSON.stringify(header)} is not "Name: value"`,
        "e.g. --header 'Authorization: Bearer TOKEN'",
      );
    }
    headers[name] = header.slice(colon + 1).trim();
  }
  return { url, headers };
}

/** --url URL [--header 'Name: value']...: one remote server, named after its host. */
function remoteTarget(options: TargetOptions): HostConfig {
  if (options.command.length > 0 || options.config)
    throw new UsageError('give one of --url URL, --config FILE or "-- COMMAND"');
  const { url, headers } = parseRemote(options.url ?? '', options.headers ?? []);
  const parsed = new URL(url);
  const name = parsed.hostname.replace(/^\[|\]$/g, '') || 'remote';
  return { servers: { [name]: { type: 'http', url, headers, disabled: false } } };
}

const LAUNCHERS = new Set([
  'node',
  'npx',
  'npm',
  'pnpm',
  'bunx',
  'bun',
  'deno',
  'python',
  'python3',
  'uv',
  'uvx',
  'sh',
  'bash',
]);

/** A short name for a server command: the script or package after a launcher such as node or npx. */
function serverName(command: string[]): string {
  const words = command.map((word) => path.basename(word).replace(/\.[cm]?[jt]s$/, ''));
  const first = words[0] ?? 'server';
  if (!LAUNCHERS.has(first)) return first || 'server';
  const next = words.slice(1).find((w) => !w.startsWith('-') && w !== 'run' && w !== 'exec');
  return next?.replace(/^@[^/]+\//, '') || first;
}

/** The host's name for a tool or prompt: unprefixed names are accepted when there is one server. */
export function qualify(target: Target, name: string): string {
  return target.single !== undefined && !name.startsWith(`${target.single}__`)
    ? `${target.single}__${name}`
    : name;
}

/** The client of every server that started, with its name. */
export function readyClients(target: Target): Array<{ name: string; client: McpClient }> {
  return target.host
    .status()
    .filter((s) => s.state === 'ready')
    .map((s) => ({ name: s.name, client: target.host.client(s.name) }));
}

/** The name to show: without the server prefix when there is only one server. */
export function display(target: Target, qualified: string, original: string): string {
  return target.single !== undefined ? original : qualified;
}
