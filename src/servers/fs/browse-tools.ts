// Tools that look at directories: list_directory (the seed's example), directory_tree, search_files.

import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '../../server/server.js';
import { type FsOptions, fsContext } from './context.js';

type EntryType = 'file' | 'directory' | 'symlink' | 'other';

function typeOf(entry: Dirent): EntryType {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}

async function sortedEntries(directory: string): Promise<Dirent[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const patternList = {
  type: 'array',
  items: { type: 'string' },
  description: 'Glob patterns of paths to leave out, e.g. "node_modules" or "**/*.log".',
};

export function registerBrowseTools(server: McpServer, options: FsOptions): void {
  server.tool(
    {
      name: 'list_directory',
      title: 'List directory',
      description:
        'List the files and directories in a directory, each marked [FILE] or [DIR]. Only works inside the allowed directories.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string', description: 'The directory to list.' } },
        required: ['path'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          entries: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                type: { enum: ['file', 'directory', 'symlink', 'other'] },
              },
              required: ['name', 'type'],
            },
          },
        },
        required: ['entries'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const directory = await roots.resolve(String(args.path));
      request.log('info', `Scanning local folder ${directory}`, 'mcpwire-fs');
      const entries = (await sortedEntries(directory)).map((e) => ({ name: e.name, type: typeOf(e) }));
      const text =
        entries.map((e) => `${e.type === 'directory' ? '[DIR]' : '[FILE]'} ${lineSafe(e.name)}`).join('\n') ||
        '(empty directory)';
      return { content: [{ type: 'text', text }], structuredContent: { entries } };
    },
  );

  server.tool(
    {
      name: 'directory_tree',
      title: 'Directory tree',
      description:
        'A recursive tree of a directory as JSON: each entry has a name, a type and, for directories, children.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, excludePatterns: patternList },
        required: ['path'],
        additionalProperties: false,
      },
      outputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { tree: { type: 'array', items: { $ref: '#/$defs/entry' } } },
        required: ['tree'],
        $defs: {
          entry: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              type: { enum: ['file', 'directory', 'symlink', 'other'] },
              children: { type: 'array', items: { $ref: '#/$defs/entry' } },
            },
            required: ['name', 'type'],
          },
        },
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const top = await roots.resolve(String(args.path));
      const exclude = await excluder((args.excludePatterns as string[] | undefined) ?? []);
      const tree = await buildTree(top, top, exclude, request.signal);
      return {
        content: [{ type: 'text', text: JSON.stringify(tree, null, 2) }],
        structuredContent: { tree },
      };
    },
  );

  server.tool(
    {
      name: 'search_files',
      title: 'Search files',
      description:
        'Find files and directories below a path whose relative path matches a glob pattern ("**/*.ts", "*.md"). Patterns without a "/" match names at any depth.',
      inputSchema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Where to start searching.' },
          pattern: { type: 'string', description: 'A glob pattern.' },
          excludePatterns: patternList,
        },
        required: ['path', 'pattern'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { matches: { type: 'array', items: { type: 'string' } } },
        required: ['matches'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const top = await roots.resolve(String(args.path));
      const { default: picomatch } = await import('picomatch');
      const pattern = String(args.pattern);
      const isMatch = picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
      const exclude = await excluder((args.excludePatterns as string[] | undefined) ?? []);
      const matches: string[] = [];
      await walk(top, top, exclude, request.signal, (relative, absolute) => {
        if (isMatch(relative)) matches.push(absolute);
      });
      return {
        content: [
          { type: 'text', text: matches.length > 0 ? matches.map(lineSafe).join('\n') : 'No matches found' },
        ],
        structuredContent: { matches },
      };
    },
  );
}

async function excluder(patterns: string[]): Promise<(relative: string) => boolean> {
  if (patterns.length === 0) return () => false;
  const { default: picomatch } = await import('picomatch');
  const matchers = patterns.map((p) => picomatch(p, { dot: true, basename: !p.includes('/') }));
  return (relative) => matchers.some((m) => m(relative));
}

interface TreeEntry {
  name: string;
  type: EntryType;
  children?: TreeEntry[];
}

async function buildTree(
  top: string,
  directory: string,
  exclude: (relative: string) => boolean,
  signal: AbortSignal,
): Promise<TreeEntry[]> {
  signal.throwIfAborted();
  const result: TreeEntry[] = [];
  for (const entry of await sortedEntries(directory)) {
    const absolute = path.join(directory, entry.name);
    if (exclude(path.relative(top, absolute))) continue;
    const node: TreeEntry = { name: entry.name, type: typeOf(entry) };
    // Symbolic links are not followed: they could lead outside the roots or into a loop.
    if (entry.isDirectory()) node.children = await buildTree(top, absolute, exclude, signal);
    result.push(node);
  }
  return result;
}

/** Visits every entry below `directory`. */
async function walk(
  top: string,
  directory: string,
  exclude: (relative: string) => boolean,
  signal: AbortSignal,
  visit: (relative: string, absolute: string) => void,
): Promise<void> {
  signal.throwIfAborted();
  let entries: Dirent[];
  try {
    entries = await sortedEntries(directory);
  } catch {
    return;
  }
  for (const entry of entries) {
    const absolute = path.join(directory, entry.name);
    const relative = path.relative(top, absolute);
    if (exclude(relative)) continue;
    visit(relative, absolute);
    // Symbolic links are listed but not followed.
    if (entry.isDirectory()) await walk(top, absolute, exclude, signal, visit);
  }
}

/**
 * A name as it may stand on one line of a listing: control characters (a newline could forge a "[DIR]"
 * line) are written as escapes. The structured result keeps every name exactly.
 */
export function lineSafe(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is escaped.
  return name.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));
}
