// Every file under the roots as a file:// resource: listed page by page in a stable order (a walk that
// resumes after the last path of the previous page, instead of listing everything again), read as text or
// as a base64 blob, and watched for changes while a client is subscribed. The walk goes through
// CheckedDirectory handles (directory.ts): a directory swapped for a link to outside is never listed. A
// URI holds the exact bytes of its path (names.ts), percent-encoded.

import { isUtf8 } from 'node:buffer';
import { type FSWatcher, realpathSync, watch } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { StreamedString } from '../../jsonrpc/streamed.js';
import { invalidParams, resourceNotFound } from '../../protocol/errors.js';
import type { Resource, ResourceContents } from '../../protocol/types.js';
import type { ResourcePage, StreamedContents } from '../../server/resources.js';
import type { McpServer } from '../../server/server.js';
import { fileSource } from '../../server/streamed-file.js';
import { checkEscapedFits, checkFits, checkTextFits, type FsOptions, fsContext } from './context.js';
import { type AfterCheck, CheckedDirectory, type Entry } from './directory.js';
import { isTextMime, mimeTypeOf } from './mime.js';
import { fileUri, fsPath, nameFromBytes, pathOfFileUri, readName, showName } from './names.js';
import { openRegularFile } from './open-file.js';
import { AccessDeniedError, FileNotFoundError, knownRoots, type Roots } from './roots.js';
import { STREAM_FROM, scanText } from './scan-text.js';

export function registerFileResources(server: McpServer, options: FsOptions): void {
  server.resourceTemplate(
    {
      uriTemplate: 'file:///{+path}',
      name: 'file',
      title: 'Files under the allowed directories',
      description: 'Any file under the allowed directories, by its file:// URI.',
      list: async (context, position) =>
        listFiles(
          (await fsContext(options, context)).roots,
          position.after,
          position.limit,
          options.afterCheck,
        ),
    },
    async (uri, _variables, context) => {
      const { roots } = await fsContext(options, context);
      return [await readFileResource(roots, uri, options.maxMessageSize)];
    },
  );
  watchSubscriptions(server, options);
}

async function readFileResource(
  roots: Roots,
  uri: string,
  maxMessageSize: number,
): Promise<ResourceContents | StreamedContents> {
  let filePath: string;
  try {
    filePath = await roots.resolveUri(uri);
  } catch (error) {
    if (error instanceof FileNotFoundError) throw resourceNotFound(uri);
    if (error instanceof AccessDeniedError) {
      throw invalidParams(error.message, { uri, allowedDirectories: error.allowed });
    }
    throw error;
  }
  const mimeType = mimeTypeOf(filePath);
  const asText = isTextMime(mimeType) || mimeType === 'application/octet-stream';
  let opened: { handle: FileHandle; size: number };
  try {
    opened = await openRegularFile(roots, fsPath(filePath), {
      shown: uri,
      directory: () =>
        invalidParams(
          `${uri} is a directory; read the files in it, or list it with the list_directory tool`,
          {
            uri,
          },
        ),
      size: (size) => {
        try {
          checkFits(uri, size, asText ? size : Math.ceil(size / 3) * 4, maxMessageSize);
        } catch (error) {
          throw tooLarge(error, { uri, size, maxMessageSize });
        }
      },
    });
  } catch (error) {
    // A special file, or one moved while it was opened: the request names something that cannot be read.
    if (error instanceof JsonRpcError || (error as NodeJS.ErrnoException).code !== undefined) throw error;
    throw invalidParams((error as Error).message, { uri });
  }
  const { handle, size } = opened;
  if (size >= STREAM_FROM) return streamFileResource(uri, mimeType, asText, opened, maxMessageSize);
  let bytes: Buffer;
  try {
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  // Unknown types are sent as text when they are valid UTF-8, as a base64 blob otherwise.
  if (asText && isUtf8(bytes)) {
    const text = bytes.toString('utf8');
    try {
      checkTextFits(uri, text, 1, maxMessageSize);
    } catch (error) {
      throw tooLarge(error, { uri, maxMessageSize });
    }
    return { uri, mimeType: textMime(mimeType), text };
  }
  return { uri, mimeType, blob: bytes.toString('base64') };
}

function textMime(mimeType: string): string {
  return mimeType === 'application/octet-stream' ? 'text/plain' : mimeType;
}

function tooLarge(error: unknown, data: Record<string, unknown>): JsonRpcError {
  return new JsonRpcError(ErrorCode.InternalError, (error as Error).message, data);
}

/**
 * A large file as a streamed value: the same answer, the same checks (valid UTF-8 for text, the escaped
 * size within the limit), made by one pass over the file before the answer is written by a second.
 */
async function streamFileResource(
  uri: string,
  mimeType: string,
  asText: boolean,
  { handle, size }: { handle: FileHandle; size: number },
  maxMessageSize: number,
): Promise<ResourceContents | StreamedContents> {
  try {
    if (asText) {
      // JSON escapes make a byte at most 6 (\u0000): only a file that could then outgrow the limit is counted.
      const scan = await scanText(handle, size, size * 6 + 4096 > maxMessageSize);
      if (scan.utf8) {
        if (scan.escapedBytes !== undefined) {
          try {
            checkEscapedFits(uri, scan.escapedBytes, 1, maxMessageSize);
          } catch (error) {
            throw tooLarge(error, { uri, maxMessageSize });
          }
        }
        const text = new StreamedString(fileSource(handle, size), 'text', size);
        return { uri, mimeType: textMime(mimeType), text };
      }
      try {
        checkFits(uri, size, Math.ceil(size / 3) * 4, maxMessageSize);
      } catch (error) {
        throw tooLarge(error, { uri, size, maxMessageSize });
      }
    }
    const blob = new StreamedString(fileSource(handle, size), 'base64', size);
    return { uri, mimeType, blob };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Position of a listing: which root, and the last path returned below it (as the tools show names). */
type Position = [number, string];

async function listFiles(
  roots: Roots,
  after: string | undefined,
  limit: number,
  afterCheck: AfterCheck | undefined,
): Promise<ResourcePage> {
  let [rootIndex, last] = parsePosition(after);
  const resources: Resource[] = [];
  const directories = roots.directories;
  while (rootIndex < directories.length && resources.length < limit) {
    const root = directories[rootIndex]!;
    const lastSegments = last ? last.split('/') : undefined;
    let full = false;
    const top = await CheckedDirectory.open(roots, root, afterCheck).catch(() => undefined);
    try {
      for await (const relative of top ? walkFiles(top, '', lastSegments) : []) {
        resources.push({
          uri: fileUri(path.join(root, relative)),
          name: showName(relative),
          mimeType: mimeTypeOf(relative),
        });
        if (resources.length >= limit) {
          full = true;
          last = relative;
          break;
        }
      }
    } finally {
      await top?.close();
    }
    if (full) return { resources, next: JSON.stringify([rootIndex, showName(last)] satisfies Position) };
    rootIndex++;
    last = '';
  }
  return { resources, next: undefined };
}

function parsePosition(after: string | undefined): Position {
  if (after === undefined) return [0, ''];
  try {
    const value = JSON.parse(after) as unknown;
    if (Array.isArray(value) && Number.isInteger(value[0]) && typeof value[1] === 'string') {
      const last = readName(value[1]);
      if (!(last instanceof Error)) return [value[0] as number, last];
    }
  } catch {
    // Refused below.
  }
  throw invalidParams('Invalid cursor: pass the nextCursor of a previous resources/list response, unchanged');
}

/**
 * Files below `directory` in sorted order, skipping everything up to and including the path
 * `after` (as segments), without visiting the subtrees that lie entirely before it.
 */
async function* walkFiles(
  directory: CheckedDirectory,
  relative: string,
  after: string[] | undefined,
): AsyncGenerator<string> {
  const entries = await sortedEntries(directory);
  if (!entries) return;
  // The page resumes where the last one ended: the directory's sorted entries are searched, not walked.
  const start = after ? firstNotBefore(entries, after[0]!) : 0;
  for (let i = start; i < entries.length; i++) {
    const entry = entries[i]!;
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (after) {
      const head = after[0]!;
      if (entry.name < head) continue;
      if (entry.name === head) {
        if (entry.type === 'directory' && after.length > 1) {
          yield* walkBelow(directory, entry.name, child, after.slice(1));
        }
        after = undefined;
        continue;
      }
      after = undefined;
    }
    // Symbolic links are not followed in listings: they could lead out of the roots or into a loop.
    if (entry.type === 'directory') yield* walkBelow(directory, entry.name, child, undefined);
    else if (entry.type === 'file') yield child;
  }
}

/** walkFiles of a subdirectory, opened through its parent's handle (skipped if it became a link). */
async function* walkBelow(
  parent: CheckedDirectory,
  name: string,
  relative: string,
  after: string[] | undefined,
): AsyncGenerator<string> {
  const directory = await parent.subdirectory(name).catch(() => undefined);
  if (!directory) return;
  try {
    yield* walkFiles(directory, relative, after);
  } finally {
    await directory.close();
  }
}

/**
 * The sorted entries of the directories listed last, kept while each directory is unchanged (the same
 * inode and modification time, to the nanosecond): paging through a directory of 100,000 entries read and
 * sorted all of them again for every page, 91 ms a page.
 */
const LISTED_KEPT = 16;
const listed = new Map<string, { ino: bigint; mtimeNs: bigint; entries: Entry[] }>();

/** How many directories were read from disk (tests watch that pages reuse the listing). */
export const listingReads = { count: 0 };

async function sortedEntries(directory: CheckedDirectory): Promise<Entry[] | undefined> {
  let info: { ino: bigint; mtimeNs: bigint };
  let entries: Entry[];
  try {
    info = await directory.version();
    const kept = listed.get(directory.path);
    if (kept && kept.ino === info.ino && kept.mtimeNs === info.mtimeNs) {
      // Most recently used last: the map's order is the order of eviction.
      listed.delete(directory.path);
      listed.set(directory.path, kept);
      return kept.entries;
    }
    entries = await directory.entries();
  } catch {
    return undefined;
  }
  listingReads.count++;
  listed.delete(directory.path);
  listed.set(directory.path, { ino: info.ino, mtimeNs: info.mtimeNs, entries });
  if (listed.size > LISTED_KEPT) listed.delete(listed.keys().next().value!);
  return entries;
}

/** The index of the first entry whose name is not before `name`. */
function firstNotBefore(entries: Entry[], name: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle]!.name < name) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Watches a file while at least one client is subscribed to it. */
function watchSubscriptions(server: McpServer, options: FsOptions): void {
  const watchers = new Map<string, FSWatcher>();
  server.onSubscriptionChange((uri, subscribed, session) => {
    if (!subscribed) {
      watchers.get(uri)?.close();
      watchers.delete(uri);
      return;
    }
    let filePath: string | undefined;
    try {
      filePath = path.sep === '/' ? pathOfFileUri(uri) : fileURLToPath(uri);
    } catch {
      return;
    }
    if (filePath === undefined) return;
    // The roots the subscribing session reads under: its client's once known, else the configured ones.
    const roots = knownRoots(session.state) ?? options.roots;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // Its real path too: a symlink inside a root may point out of it.
      const real = nameFromBytes(realpathSync(fsPath(filePath), { encoding: 'buffer' }));
      if (!roots.contains(filePath) || !roots.contains(real)) return;
      const watcher = watch(fsPath(filePath), { persistent: false }, () => {
        // Editors write a file in several steps: report the change once it settles.
        clearTimeout(timer);
        timer = setTimeout(() => server.notifyResourceUpdated(uri), 50);
      });
      watcher.on('error', () => watcher.close());
      watchers.set(uri, watcher);
    } catch {
      // A file that does not exist (yet) cannot be watched; the subscription stays, silently.
    }
  });
}
