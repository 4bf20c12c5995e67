// Every file under the roots as a file:// resource: listed page by page in a stable order (a walk that
// resumes after the last path of the previous page, instead of listing everything again), read as text or
// as a base64 blob, and watched for changes while a client is subscribed.

import { isUtf8 } from 'node:buffer';
import { type Dirent, type FSWatcher, realpathSync, watch } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { invalidParams, resourceNotFound } from '../../protocol/errors.js';
import type { Resource, ResourceContents } from '../../protocol/types.js';
import type { ResourcePage } from '../../server/resources.js';
import type { McpServer } from '../../server/server.js';
import { checkFits, type FsOptions, fsContext } from './context.js';
import { isTextMime, mimeTypeOf } from './mime.js';
import { readRegularFile } from './open-file.js';
import { AccessDeniedError, FileNotFoundError, knownRoots, type Roots } from './roots.js';

export function registerFileResources(server: McpServer, options: FsOptions): void {
  server.resourceTemplate(
    {
      uriTemplate: 'file:///{+path}',
      name: 'file',
      title: 'Files under the allowed directories',
      description: 'Any file under the allowed directories, by its file:// URI.',
      list: async (context, position) =>
        listFiles((await fsContext(options, context)).roots, position.after, position.limit),
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
): Promise<ResourceContents> {
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
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(roots, filePath, {
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
          throw new JsonRpcError(ErrorCode.InternalError, (error as Error).message, {
            uri,
            size,
            maxMessageSize,
          });
        }
      },
    });
  } catch (error) {
    // A special file, or one moved while it was opened: the request names something that cannot be read.
    if (error instanceof JsonRpcError || (error as NodeJS.ErrnoException).code !== undefined) throw error;
    throw invalidParams((error as Error).message, { uri });
  }
  // Unknown types are sent as text when they are valid UTF-8, as a base64 blob otherwise.
  if (asText && isUtf8(bytes)) {
    return {
      uri,
      mimeType: mimeType === 'application/octet-stream' ? 'text/plain' : mimeType,
      text: bytes.toString('utf8'),
    };
  }
  return { uri, mimeType, blob: bytes.toString('base64') };
}

/** Position of a listing: which root, and the last path returned below it. */
type Position = [number, string];

async function listFiles(roots: Roots, after: string | undefined, limit: number): Promise<ResourcePage> {
  let [rootIndex, last] = parsePosition(after);
  const resources: Resource[] = [];
  const directories = roots.directories;
  while (rootIndex < directories.length && resources.length < limit) {
    const root = directories[rootIndex]!;
    const lastSegments = last ? last.split('/') : undefined;
    let full = false;
    for await (const relative of walkFiles(root, '', lastSegments)) {
      const absolute = path.join(root, relative);
      resources.push({
        uri: pathToFileURL(absolute).href,
        name: relative,
        mimeType: mimeTypeOf(relative),
      });
      if (resources.length >= limit) {
        full = true;
        last = relative;
        break;
      }
    }
    if (full) return { resources, next: JSON.stringify([rootIndex, last] satisfies Position) };
    rootIndex++;
    last = '';
  }
  return { resources, next: undefined };
}

function parsePosition(after: string | undefined): Position {
  if (after === undefined) return [0, ''];
  try {
    const value = JSON.parse(after) as unknown;
    if (Array.isArray(value) && Number.isInteger(value[0]) && typeof value[1] === 'string')
      return value as Position;
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
  root: string,
  relative: string,
  after: string[] | undefined,
): AsyncGenerator<string> {
  const entries = await sortedEntries(path.join(root, relative));
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
        if (entry.isDirectory() && after.length > 1) yield* walkFiles(root, child, after.slice(1));
        after = undefined;
        continue;
      }
      after = undefined;
    }
    // Symbolic links are not followed in listings: they could lead out of the roots or into a loop.
    if (entry.isDirectory()) yield* walkFiles(root, child, undefined);
    else if (entry.isFile()) yield child;
  }
}

/**
 * The sorted entries of the directories listed last, kept while each directory is unchanged (the same
 * inode and modification time, to the nanosecond): paging through a directory of 100,000 entries read and
 * sorted all of them again for every page, 91 ms a page.
 */
const LISTED_KEPT = 16;
const listed = new Map<string, { ino: bigint; mtimeNs: bigint; entries: Dirent[] }>();

/** How many directories were read from disk (tests watch that pages reuse the listing). */
export const listingReads = { count: 0 };

async function sortedEntries(directory: string): Promise<Dirent[] | undefined> {
  let info: { ino: bigint; mtimeNs: bigint };
  try {
    info = await stat(directory, { bigint: true });
  } catch {
    return undefined;
  }
  const kept = listed.get(directory);
  if (kept && kept.ino === info.ino && kept.mtimeNs === info.mtimeNs) {
    // Most recently used last: the map's order is the order of eviction.
    listed.delete(directory);
    listed.set(directory, kept);
    return kept.entries;
  }
  let entries: Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return undefined;
  }
  listingReads.count++;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  listed.delete(directory);
  listed.set(directory, { ino: info.ino, mtimeNs: info.mtimeNs, entries });
  if (listed.size > LISTED_KEPT) listed.delete(listed.keys().next().value!);
  return entries;
}

/** The index of the first entry whose name is not before `name`. */
function firstNotBefore(entries: Dirent[], name: string): number {
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
    let filePath: string;
    try {
      filePath = fileURLToPath(uri);
    } catch {
      return;
    }
    // The roots the subscribing session reads under: its client's once known, else the configured ones.
    const roots = knownRoots(session.state) ?? options.roots;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // Its real path too: a symlink inside a root may point out of it.
      if (!roots.contains(filePath) || !roots.contains(realpathSync(filePath))) return;
      const watcher = watch(filePath, { persistent: false }, () => {
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
