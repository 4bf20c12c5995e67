// What a gateway exposes of each server: allow and deny lists (globs: `*` any run of characters, `?` one)
// for its tools, prompts and resources (by URI), and renames of tools and prompts. Written in the server's
// entry of the mcpServers configuration, beside its command or url:
//   "fs": {"command": "...", "tools": {"allow": ["read_*"], "deny": ["*_secret"], "rename": {"read_file": "read"}}}

import { ConfigError } from '../host/config.js';

export interface ListFilter {
  allow: RegExp[] | undefined;
  deny: RegExp[];
  /** The server's name → the name shown (tools and prompts). */
  rename: Map<string, string>;
  /** The name shown → the server's name. */
  original: Map<string, string>;
}

export interface ServerFilters {
  /** Whether tools and prompts are shown as "<server>__<name>" (true), or under their own names. */
  prefix: boolean;
  tools: ListFilter;
  prompts: ListFilter;
  resources: ListFilter;
}

const KINDS = ['tools', 'prompts', 'resources'] as const;

/** Whether a name (or URI) passes the filter: allowed (or no allow list), and not denied. */
export function passes(filter: ListFilter, name: string): boolean {
  if (filter.allow && !filter.allow.some((glob) => glob.test(name))) return false;
  return !filter.deny.some((glob) => glob.test(name));
}

export function shownName(filter: ListFilter, name: string): string {
  return filter.rename.get(name) ?? name;
}

/** The server's name for a shown name; undefined for a name that was renamed away. */
export function originalName(filter: ListFilter, shown: string): string | undefined {
  return filter.original.get(shown) ?? (filter.rename.has(shown) ? undefined : shown);
}

export function noFilters(): ServerFilters {
  const none = (): ListFilter => ({ allow: undefined, deny: [], rename: new Map(), original: new Map() });
  return { prefix: true, tools: none(), prompts: none(), resources: none() };
}

/** The filters of every server of a configuration's JSON (its mcpServers or servers table). */
export function parseFilters(json: unknown, source: string): Map<string, ServerFilters> {
  const root = json as { mcpServers?: unknown; servers?: unknown };
  const table = (root?.mcpServers ?? root?.servers ?? {}) as Record<string, unknown>;
  const filters = new Map<string, ServerFilters>();
  for (const [server, raw] of Object.entries(table)) {
    const entry = (raw ?? {}) as Record<string, unknown>;
    const result = noFilters();
    if (entry.prefix !== undefined) {
      if (typeof entry.prefix !== 'boolean') {
        throw new ConfigError(`${source}: server "${server}": "prefix" must be true or false`);
      }
      result.prefix = entry.prefix;
    }
    for (const kind of KINDS) {
      if (entry[kind] === undefined) continue;
      result[kind] = parseFilter(entry[kind], kind, `${source}: server "${server}": "${kind}"`);
    }
    filters.set(server, result);
  }
  return filters;
}

function parseFilter(raw: unknown, kind: (typeof KINDS)[number], where: string): ListFilter {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`${where} must be an object: {"allow": [...], "deny": [...], "rename": {...}}`);
  }
  const { allow, deny, rename, ...rest } = raw as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    throw new ConfigError(
      `${where} has ${unknown.map((k) => `"${k}"`).join(', ')}; it takes allow, deny and rename`,
    );
  }
  const globs = (list: unknown, name: string): RegExp[] | undefined => {
    if (list === undefined) return undefined;
    if (!Array.isArray(list) || list.some((g) => typeof g !== 'string')) {
      throw new ConfigError(`${where}.${name} must be an array of glob strings, e.g. ["read_*"]`);
    }
    return (list as string[]).map(globToRegExp);
  };
  const renames = new Map<string, string>();
  const originals = new Map<string, string>();
  if (rename !== undefined) {
    if (kind === 'resources')
      throw new ConfigError(`${where}: resources are not renamed (their URIs are kept)`);
    if (
      typeof rename !== 'object' ||
      rename === null ||
      Array.isArray(rename) ||
      Object.values(rename).some((v) => typeof v !== 'string' || v === '')
    ) {
      throw new ConfigError(`${where}.rename must map names to new names, e.g. {"read_file": "read"}`);
    }
    for (const [from, to] of Object.entries(rename as Record<string, string>)) {
      if (originals.has(to)) throw new ConfigError(`${where}.rename gives two names the name "${to}"`);
      renames.set(from, to);
      originals.set(to, from);
    }
  }
  return {
    allow: globs(allow, 'allow'),
    deny: globs(deny, 'deny') ?? [],
    rename: renames,
    original: originals,
  };
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 's');
}
