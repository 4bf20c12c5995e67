// Tools that look at directories: list_directory (the seed's example), directory_tree, search_files.
// Each lists through CheckedDirectory handles (directory.ts), so a directory swapped for a link to outside
// after its check is never listed; names are shown exactly (names.ts), as the read tools take them back.

import path from 'node:path';
import type { McpServer } from '../../server/server.js';
import { type FsOptions, fsContext } from './context.js';
import { CheckedDirectory, type EntryType } from './directory.js';
import { showName } from './names.js';

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
      const resolved = await roots.resolve(String(args.path));
      request.log('info', `Scanning local folder ${showName(resolved)}`, 'mcpwire-fs');
      const directory = await CheckedDirectory.open(roots, resolved, options.afterCheck);
      let entries: Array<{ name: string; type: EntryType }>;
      try {
        entries = (await directory.entries()).map((e) => ({ name: showName(e.name), type: e.type }));
      } finally {
        await directory.close();
      }
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
      const top = await CheckedDirectory.open(
        roots,
        await roots.resolve(String(args.path)),
        options.afterCheck,
      );
      const exclude = await excluder((args.excludePatterns as string[] | undefined) ?? []);
      const tree = await buildTree(top, '', exclude, request.signal).finally(() => top.close());
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
      const top = await CheckedDirectory.open(
        roots,
        await roots.resolve(String(args.path)),
        options.afterCheck,
      );
      const { default: picomatch } = await import('picomatch');
      const pattern = String(args.pattern);
      const isMatch = picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
      const exclude = await excluder((args.excludePatterns as string[] | undefined) ?? []);
      const matches: string[] = [];
      await walk(top, '', exclude, request.signal, (relative) => {
        if (isMatch(showName(relative))) matches.push(showName(path.join(top.path, relative)));
      }).finally(() => top.close());
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

/**
 * The entries below `directory` (at `relative` from where the walk began, in the code's form) as a tree.
 * A subdirectory that cannot be opened (it became a link, or went away) is given without children.
 */
async function buildTree(
  directory: CheckedDirectory,
  relative: string,
  exclude: (relative: string) => boolean,
  signal: AbortSignal,
): Promise<TreeEntry[]> {
  signal.throwIfAborted();
  const result: TreeEntry[] = [];
  for (const entry of await directory.entries()) {
    const child = path.join(relative, entry.name);
    if (exclude(showName(child))) continue;
    const node: TreeEntry = { name: showName(entry.name), type: entry.type };
    // Symbolic links are not followed: they could lead outside the roots or into a loop.
    if (entry.type === 'directory') {
      const below = await directory.subdirectory(entry.name).catch(() => undefined);
      if (below) node.children = await buildTree(below, child, exclude, signal).finally(() => below.close());
    }
    result.push(node);
  }
  return result;
}

/** Visits every entry below `directory` with its path relative to where the walk began (shown form). */
async function walk(
  directory: CheckedDirectory,
  relative: string,
  exclude: (relative: string) => boolean,
  signal: AbortSignal,
  visit: (relative: string) => void,
): Promise<void> {
  signal.throwIfAborted();
  const entries = await directory.entries().catch(() => []);
  for (const entry of entries) {
    const child = path.join(relative, entry.name);
    if (exclude(showName(child))) continue;
    visit(child);
    // Symbolic links are listed but not followed.
    if (entry.type !== 'directory') continue;
    const below = await directory.subdirectory(entry.name).catch(() => undefined);
    if (below) await walk(below, child, exclude, signal, visit).finally(() => below.close());
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
