// The server configuration that desktop hosts and editors already use:
//   {"mcpServers": {"name": {"command": "...", "args": [...], "env": {...}, "cwd": "..."}}}
// and for a remote server {"url": "https://...", "headers": {...}} (VS Code adds "type": "http" or "sse"),
// with ${VAR}, ${VAR:-default} and ${env:VAR} expanded from the environment in every string.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { McpwireError } from '../jsonrpc/local-errors.js';

/** A server the host starts as a child process and talks to over its stdin and stdout. */
export interface StdioServerConfig {
  type?: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  /** Set to true in the file to keep an entry without starting it. */
  disabled: boolean;
}

/**
 * A server reached at a URL: 'http' is Streamable HTTP, falling back to the older HTTP+SSE transport
 * when the server refuses it; 'sse' is the older transport alone (revision 2024-11-05).
 */
export interface RemoteServerConfig {
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  disabled: boolean;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

export function isRemote(config: ServerConfig): config is RemoteServerConfig {
  return config.type === 'http' || config.type === 'sse';
}

/** The names the configurations in the wild give each transport. */
const TYPES: Record<string, 'stdio' | 'http' | 'sse'> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
};

export interface HostConfig {
  servers: Record<string, ServerConfig>;
}

/** A configuration that cannot be used, with where and why. */
export class ConfigError extends McpwireError {
  override readonly name = 'ConfigError';
  constructor(message: string) {
    super('CONFIG', message);
  }
}

export async function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<HostConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `cannot read the configuration ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parseConfig(json, env, path.dirname(path.resolve(file)), file);
}

export function parseConfig(
  json: unknown,
  env: NodeJS.ProcessEnv,
  baseDir: string,
  source = 'the configuration',
): HostConfig {
  const root = json as { mcpServers?: unknown; servers?: unknown };
  // VS Code names the table "servers"; desktop hosts name it "mcpServers".
  const table = root?.mcpServers ?? root?.servers;
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    throw new ConfigError(
      `${source} needs an "mcpServers" object: {"mcpServers": {"name": {"command": "...", "args": []}}}`,
    );
  }
  const servers: Record<string, ServerConfig> = {};
  for (const [name, raw] of Object.entries(table as Record<string, unknown>)) {
    const where = `${source}: server "${name}"`;
    if (typeof raw !== 'object' || raw === null) throw new ConfigError(`${where} must be an object`);
    const entry = raw as Record<string, unknown>;
    const expand = (value: string) => expandVariables(value, env, where);
    const type =
      typeof entry.type === 'string' && Object.hasOwn(TYPES, entry.type) ? TYPES[entry.type] : undefined;
    if (entry.type !== undefined && type === undefined) {
      throw new ConfigError(
        `${where}: "type" ${JSON.stringify(entry.type)} is not one of "stdio", "http" (Streamable HTTP) or "sse"`,
      );
    }
    if (
      type === 'http' ||
      type === 'sse' ||
      (type === undefined && 'url' in entry && !('command' in entry))
    ) {
      servers[name] = remoteEntry(entry, type ?? 'http', where, expand);
      continue;
    }
    if (typeof entry.command !== 'string' || entry.command === '') {
      throw new ConfigError(
        `${where} needs a "command" string (a stdio server) or a "url" (a remote server)`,
      );
    }
    const args = entry.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) {
      throw new ConfigError(`${where}: "args" must be an array of strings`);
    }
    const serverEnv = entry.env ?? {};
    if (
      typeof serverEnv !== 'object' ||
      serverEnv === null ||
      Object.values(serverEnv).some((v) => typeof v !== 'string')
    ) {
      throw new ConfigError(`${where}: "env" must be an object of strings`);
    }
    if (entry.cwd !== undefined && typeof entry.cwd !== 'string')
      throw new ConfigError(`${where}: "cwd" must be a string`);
    servers[name] = {
      type: 'stdio',
      command: expand(entry.command),
      args: (args as string[]).map(expand),
      env: Object.fromEntries(
        Object.entries(serverEnv as Record<string, string>).map(([k, v]) => [k, expand(v)]),
      ),
      cwd: entry.cwd === undefined ? undefined : path.resolve(baseDir, expand(entry.cwd)),
      disabled: entry.disabled === true,
    };
  }
  return { servers };
}

function remoteEntry(
  entry: Record<string, unknown>,
  type: 'http' | 'sse',
  where: string,
  expand: (value: string) => string,
): RemoteServerConfig {
  if (typeof entry.url !== 'string' || entry.url === '')
    throw new ConfigError(`${where} needs a "url" string, e.g. "https://example.com/mcp"`);
  const url = expand(entry.url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`${where}: "url" ${JSON.stringify(url)} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`${where}: "url" must be http:// or https://, not ${parsed.protocol}`);
  const headers = entry.headers ?? {};
  if (
    typeof headers !== 'object' ||
    headers === null ||
    Array.isArray(headers) ||
    Object.values(headers).some((v) => typeof v !== 'string')
  ) {
    throw new ConfigError(`${where}: "headers" must be an object of strings`);
  }
  return {
    type,
    url,
    headers: Object.fromEntries(
      Object.entries(headers as Record<string, string>).map(([k, v]) => [k, expand(v)]),
    ),
    disabled: entry.disabled === true,
  };
}

/** Expands ${VAR}, ${VAR:-default} and ${env:VAR}; an unset variable without a default is an error. */
export function expandVariables(value: string, env: NodeJS.ProcessEnv, where = 'the configuration'): string {
  return value.replace(
    /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_match, name: string, fallback?: string) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      throw new ConfigError(
        `${where} uses \${${name}}, but ${name} is not set; set it or write \${${name}:-default}`,
      );
    },
  );
}
