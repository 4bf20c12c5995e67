// Tools that change files, registered only with --write: write_file, edit_file (with a dry-run diff),
// create_directory, move_file. Each checks its paths, then works through CheckedDirectory handles
// (directory.ts), so that a directory swapped for a link in between cannot redirect it outside the roots.

import { lstat, mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '../../server/server.js';
import { checkFits, type FsOptions, fsContext } from './context.js';
import { CheckedDirectory } from './directory.js';
import { fsPath, readName, showName } from './names.js';
import { readRegularFile } from './open-file.js';
import { AccessDeniedError, FileNotFoundError, Roots } from './roots.js';

const pathProperty = { type: 'string', description: 'A path inside an allowed directory.' };

export function registerWriteTools(server: McpServer, options: FsOptions): void {
  server.tool(
    {
      name: 'write_file',
      title: 'Write file',
      description:
        'Create a file or replace its whole content with UTF-8 text. The parent directory must exist.',
      inputSchema: {
        type: 'object',
        properties: { path: pathProperty, content: { type: 'string' } },
        required: ['path', 'content'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, bytes: { type: 'integer' } },
        required: ['path', 'bytes'],
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const filePath = await roots.resolve(String(args.path), { allowMissing: true });
      const content = String(args.content);
      const directory = await CheckedDirectory.open(roots, path.dirname(filePath), options.afterCheck);
      try {
        await directory.writeFile(path.basename(filePath), content);
      } finally {
        await directory.close();
      }
      const bytes = Buffer.byteLength(content);
      return {
        content: [{ type: 'text', text: `Successfully wrote ${bytes} bytes to ${String(args.path)}` }],
        structuredContent: { path: showName(filePath), bytes },
      };
    },
  );

  server.tool(
    {
      name: 'edit_file',
      title: 'Edit file',
      description:
        'Replace exact text in a file, edit by edit, and return a unified diff of the change. Each oldText must occur exactly once. With dryRun, only the diff is returned and the file is left as it was.',
      inputSchema: {
        type: 'object',
        properties: {
          path: pathProperty,
          edits: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              properties: { oldText: { type: 'string', minLength: 1 }, newText: { type: 'string' } },
              required: ['oldText', 'newText'],
              additionalProperties: false,
            },
          },
          dryRun: { type: 'boolean', default: false },
        },
        required: ['path', 'edits'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { diff: { type: 'string' }, applied: { type: 'boolean' } },
        required: ['diff', 'applied'],
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const requested = String(args.path);
      const filePath = await roots.resolve(requested);
      const directory = await CheckedDirectory.open(roots, path.dirname(filePath), options.afterCheck);
      try {
        const name = path.basename(filePath);
        // Read as every read tool reads: a regular file only (a FIFO blocked the server for ever), opened
        // without following links, and no larger than its diff can be sent (the diff holds the lines
        // removed and the lines added, and travels twice: as text and as structured content).
        const original = (
          await readRegularFile(roots, directory.entry(name), {
            shown: requested,
            directory: () => new Error(`${requested} is a directory; edit_file edits one file`),
            size: (size) => checkFits(requested, size, size * 4, options.maxMessageSize),
          })
        ).toString('utf8');
        const updated = applyEdits(original, args.edits as Edit[], requested);
        const { createTwoFilesPatch } = await import('diff');
        const diff = createTwoFilesPatch(requested, requested, original, updated, 'original', 'modified');
        // The answer is bounded before anything is written: an edit whose diff cannot be sent is not made.
        const answerBytes = 2 * Buffer.byteLength(JSON.stringify(diff));
        if (answerBytes + 4096 > options.maxMessageSize) {
          throw new Error(
            `the diff of this edit is ${answerBytes} bytes (sent twice, as text and as structured content), over the maximum message size of ${options.maxMessageSize} bytes; nothing was changed. Make smaller edits, or start the server with a larger --max-message-size`,
          );
        }
        const applied = args.dryRun !== true;
        if (applied) await directory.writeFile(name, updated);
        return { content: [{ type: 'text', text: diff }], structuredContent: { diff, applied } };
      } finally {
        await directory.close();
      }
    },
  );

  server.tool(
    {
      name: 'create_directory',
      title: 'Create directory',
      description: 'Create a directory, with any missing parents. Succeeds if it already exists.',
      inputSchema: {
        type: 'object',
        properties: { path: pathProperty },
        required: ['path'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const requested = String(args.path);
      // Check every missing level: its nearest existing ancestor must be inside a root.
      const directory = await resolveNew(roots, requested);
      await makeDirectories(roots, directory, options);
      return {
        content: [{ type: 'text', text: `Successfully created directory ${requested}` }],
        structuredContent: { path: showName(directory) },
      };
    },
  );

  server.tool(
    {
      name: 'move_file',
      title: 'Move file',
      description: 'Move or rename a file or directory. The destination must not exist.',
      inputSchema: {
        type: 'object',
        properties: { source: pathProperty, destination: pathProperty },
        required: ['source', 'destination'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { source: { type: 'string' }, destination: { type: 'string' } },
        required: ['source', 'destination'],
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const source = await roots.resolve(String(args.source));
      // A root itself is what the server was given to work in, not a file in it: moving one (into
      // another root, say) made that root disappear.
      if (roots.directories.includes(source)) {
        throw new Error(`${String(args.source)} is an allowed directory itself; it cannot be moved`);
      }
      const destination = await roots.resolve(String(args.destination), { allowMissing: true });
      // Both ends are entries of checked directories; rename follows neither name.
      const from = await CheckedDirectory.open(roots, path.dirname(source), options.afterCheck);
      try {
        const to = await CheckedDirectory.open(roots, path.dirname(destination), options.afterCheck);
        try {
          const target = to.entry(path.basename(destination));
          const exists = await lstat(target).then(
            () => true,
            () => false,
          );
          if (exists) throw new Error(`the destination ${String(args.destination)} already exists`);
          await rename(from.entry(path.basename(source)), target);
        } finally {
          await to.close();
        }
      } finally {
        await from.close();
      }
      return {
        content: [
          { type: 'text', text: `Successfully moved ${String(args.source)} to ${String(args.destination)}` },
        ],
        structuredContent: { source: showName(source), destination: showName(destination) },
      };
    },
  );
}

interface Edit {
  oldText: string;
  newText: string;
}

/** The text with each edit made in turn; each oldText must occur exactly once when its turn comes. */
function applyEdits(original: string, edits: Edit[], requested: string): string {
  let updated = original;
  for (const [index, edit] of edits.entries()) {
    const at = updated.indexOf(edit.oldText);
    if (at === -1) throw new Error(`edit ${index + 1}: oldText was not found in ${requested}`);
    if (updated.indexOf(edit.oldText, at + 1) !== -1) {
      throw new Error(
        `edit ${index + 1}: oldText occurs more than once in ${requested}; include more context`,
      );
    }
    updated = updated.slice(0, at) + edit.newText + updated.slice(at + edit.oldText.length);
  }
  return updated;
}

/**
 * Resolves a directory whose last levels may not exist yet: the deepest existing ancestor is resolved
 * (real path, inside a root), and each missing level below it must not be a symlink (a dangling one could
 * lead anywhere).
 */
async function resolveNew(roots: Roots, requested: string): Promise<string> {
  try {
    return await roots.resolve(requested);
  } catch (error) {
    if (!(error instanceof FileNotFoundError)) throw error;
  }
  const parent = await resolveNew(roots, path.dirname(requested));
  const last = readName(path.basename(requested));
  if (last instanceof Error) throw new AccessDeniedError(requested, last.message, [...roots.directories]);
  const full = path.join(parent, last);
  const parentExists = await stat(fsPath(parent)).then(
    (info) => info.isDirectory(),
    () => false,
  );
  // With its parent on disk, the level itself may be a dangling symlink: resolve checks where it leads.
  const real = parentExists ? await roots.resolveName(requested, full, { allowMissing: true }) : full;
  if (!roots.contains(real)) {
    throw new AccessDeniedError(requested, `"${requested}" is outside the allowed directories`, [
      ...roots.directories,
    ]);
  }
  return real;
}

/**
 * Creates `directory` (from resolveNew) and any missing level above it, level by level from its root down,
 * each through the handle of the level above: a level swapped for a link is refused, not followed.
 */
async function makeDirectories(roots: Roots, directory: string, options: FsOptions): Promise<void> {
  // The innermost root that holds it (roots may nest): the fewest levels to walk.
  const root = roots.directories
    .filter((candidate) => new Roots([candidate]).contains(directory))
    .reduce((a, b) => (b.length > a.length ? b : a));
  let level = await CheckedDirectory.open(roots, root, options.afterCheck);
  try {
    for (const name of path.relative(root, directory).split(path.sep).filter(Boolean)) {
      await mkdir(level.entry(name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      const next = await level.subdirectory(name);
      await level.close();
      level = next;
    }
  } finally {
    await level.close();
  }
}
