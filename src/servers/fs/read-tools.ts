// Read-only tools, named as the widely used reference filesystem server names them so that existing
// prompts work: read_text_file, read_media_file, read_multiple_files, get_file_info,
// list_allowed_directories.

import type { FileHandle } from 'node:fs/promises';
import { stat } from 'node:fs/promises';
import { escapedBytes } from '../../jsonrpc/json-size.js';
import { type ByteSource, StreamedString } from '../../jsonrpc/streamed.js';
import type { McpServer } from '../../server/server.js';
import { fileSources } from '../../server/streamed-file.js';
import { checkEscapedFits, checkFits, checkTextFits, type FsOptions, fsContext } from './context.js';
import { mimeTypeOf } from './mime.js';
import { fileUri, fsPath } from './names.js';
import { openRegularFile, readRegularFile } from './open-file.js';
import { STREAM_FROM, scanText } from './scan-text.js';

const pathProperty = {
  type: 'string',
  description: 'A path inside an allowed directory (relative paths start at the first one).',
};

export function registerReadTools(server: McpServer, options: FsOptions): void {
  server.tool(
    {
      name: 'read_text_file',
      title: 'Read text file',
      description:
        'Read a file as UTF-8 text. Use "head" or "tail" to read only the first or last N lines. Only works inside the allowed directories.',
      inputSchema: {
        type: 'object',
        properties: {
          path: pathProperty,
          head: { type: 'integer', minimum: 0, description: 'Return only the first N lines.' },
          tail: { type: 'integer', minimum: 0, description: 'Return only the last N lines.' },
        },
        required: ['path'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { content: { type: 'string' } },
        required: ['content'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const { path: requested, head, tail } = args as { path: string; head?: number; tail?: number };
      if (head !== undefined && tail !== undefined) throw new Error('give "head" or "tail", not both');
      const filePath = await roots.resolve(requested);
      const { handle, size } = await openRegularFile(roots, fsPath(filePath), {
        shown: requested,
        directory: () => new Error(`${requested} is a directory; list it with list_directory`),
        size: (size) => checkFits(requested, size, size, options.maxMessageSize),
      });
      if (head === undefined && tail === undefined && size >= STREAM_FROM) {
        const streamed = await streamedTextTwice(requested, handle, size, options.maxMessageSize);
        if (streamed) {
          return {
            content: [{ type: 'text', text: streamed[0] }],
            structuredContent: { content: streamed[1] },
          };
        }
      }
      let content: string;
      try {
        content = (await handle.readFile()).toString('utf8');
      } finally {
        await handle.close();
      }
      if (head !== undefined) content = firstLines(content, head);
      if (tail !== undefined) content = lastLines(content, tail);
      // The size check before reading counted bytes; the answer carries the text twice, escaped.
      checkTextFits(requested, content, 2, options.maxMessageSize);
      return { content: [{ type: 'text', text: content }], structuredContent: { content } };
    },
  );

  server.tool(
    {
      name: 'read_media_file',
      title: 'Read media file',
      description:
        'Read an image or audio file (or any binary file) and return it base64-encoded with its MIME type.',
      inputSchema: {
        type: 'object',
        properties: { path: pathProperty },
        required: ['path'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const shown = String(args.path);
      const filePath = await roots.resolve(shown);
      const data = (
        await readRegularFile(roots, fsPath(filePath), {
          shown,
          directory: () => new Error(`${shown} is a directory`),
          size: (size) => checkFits(shown, size, Math.ceil(size / 3) * 4, options.maxMessageSize),
        })
      ).toString('base64');
      const mimeType = mimeTypeOf(filePath);
      if (mimeType.startsWith('image/')) return { content: [{ type: 'image', data, mimeType }] };
      if (mimeType.startsWith('audio/')) return { content: [{ type: 'audio', data, mimeType }] };
      return {
        content: [{ type: 'resource', resource: { uri: fileUri(filePath), mimeType, blob: data } }],
      };
    },
  );

  server.tool(
    {
      name: 'read_multiple_files',
      title: 'Read several files',
      description:
        'Read several text files at once. A file that cannot be read is reported in the result without failing the others.',
      inputSchema: {
        type: 'object',
        properties: { paths: { type: 'array', items: { type: 'string' }, minItems: 1 } },
        required: ['paths'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          files: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                path: { type: 'string' },
                content: { type: 'string' },
                error: { type: 'string' },
              },
              required: ['path'],
            },
          },
        },
        required: ['files'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const read = await Promise.all(
        (args.paths as string[]).map(async (requested) => {
          try {
            const filePath = await roots.resolve(requested);
            const bytes = await readRegularFile(roots, fsPath(filePath), {
              shown: requested,
              directory: () => new Error(`${requested} is a directory`),
              size: (size) => checkFits(requested, size, size, options.maxMessageSize),
            });
            return { path: requested, content: bytes.toString('utf8') };
          } catch (error) {
            return { path: requested, error: (error as Error).message };
          }
        }),
      );
      // Each file fits on its own; together they must too: the files after the one that would not are
      // left out, each saying so (every file's text is sent twice, as text and as structured content).
      let left = options.maxMessageSize - 4096;
      const bytesOf = (file: { path: string; content?: string; error?: string }) =>
        2 * (escapedBytes(file.path, 1) + escapedBytes(file.content ?? file.error ?? '', 1)) + 64;
      const files = read.map((file) => {
        let kept: { path: string; content?: string; error?: string } = file;
        if (file.content !== undefined && bytesOf(file) > left) {
          kept = {
            path: file.path,
            error: `left out: with it the answer would be larger than the maximum message size of ${options.maxMessageSize} bytes; read it on its own (read_text_file, with head or tail), or start the server with a larger --max-message-size`,
          };
        }
        left -= bytesOf(kept);
        return kept;
      });
      const text = files
        .map((f) => (f.error === undefined ? `${f.path}:\n${f.content}\n` : `${f.path}: Error - ${f.error}`))
        .join('\n---\n');
      return { content: [{ type: 'text', text }], structuredContent: { files } };
    },
  );

  server.tool(
    {
      name: 'get_file_info',
      title: 'Get file info',
      description: 'Size, times, type and permissions of a file or directory.',
      inputSchema: {
        type: 'object',
        properties: { path: pathProperty },
        required: ['path'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          size: { type: 'integer' },
          created: { type: 'string' },
          modified: { type: 'string' },
          accessed: { type: 'string' },
          isDirectory: { type: 'boolean' },
          isFile: { type: 'boolean' },
          permissions: { type: 'string' },
        },
        required: ['size', 'created', 'modified', 'accessed', 'isDirectory', 'isFile', 'permissions'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, request) => {
      const { roots } = await fsContext(options, request);
      const info = await stat(fsPath(await roots.resolve(String(args.path))));
      const structured = {
        size: info.size,
        created: info.birthtime.toISOString(),
        modified: info.mtime.toISOString(),
        accessed: info.atime.toISOString(),
        isDirectory: info.isDirectory(),
        isFile: info.isFile(),
        permissions: (info.mode & 0o777).toString(8),
      };
      const text = Object.entries(structured)
        .map(([key, value]) => `${key}: ${value}`)
        .join('\n');
      return { content: [{ type: 'text', text }], structuredContent: structured };
    },
  );

  server.tool(
    {
      name: 'list_allowed_directories',
      title: 'List allowed directories',
      description: 'The directories this server may read (and, if started with --write, change).',
      outputSchema: {
        type: 'object',
        properties: { directories: { type: 'array', items: { type: 'string' } } },
        required: ['directories'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (_args, request) => {
      const { roots } = await fsContext(options, request);
      const directories = [...roots.directories];
      return {
        content: [{ type: 'text', text: `Allowed directories:\n${directories.join('\n')}` }],
        structuredContent: { directories },
      };
    },
  );
}

function firstLines(text: string, count: number): string {
  if (count === 0) return '';
  let index = -1;
  for (let i = 0; i < count; i++) {
    index = text.indexOf('\n', index + 1);
    if (index === -1) return text;
  }
  return text.slice(0, index);
}

function lastLines(text: string, count: number): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (count === 0) return '';
  let index = body.length;
  for (let i = 0; i < count; i++) {
    index = body.lastIndexOf('\n', index - 1);
    if (index === -1) return body;
  }
  return body.slice(index + 1);
}

/**
 * A large UTF-8 file's text as the two streamed values read_text_file answers with (its text and its
 * structured content), written as the file is read (issue 21): the same answer as a whole read, refused
 * by the same limit, escapes counted, before a byte is sent. Undefined for a file that is not UTF-8, which
 * a whole read decodes with replacement characters; the handle is then the caller's still.
 */
async function streamedTextTwice(
  shown: string,
  handle: FileHandle,
  size: number,
  maxMessageSize: number,
): Promise<[StreamedString, StreamedString] | undefined> {
  try {
    // JSON escapes make a byte at most 6 (\u0000), and the text goes twice: only then are they counted.
    const scan = await scanText(handle, size, 2 * size * 6 + 4096 > maxMessageSize);
    if (!scan.utf8) return undefined;
    if (scan.escapedBytes !== undefined) checkEscapedFits(shown, 2 * scan.escapedBytes, 2, maxMessageSize);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const [text, structured] = fileSources(handle, size, 2) as [ByteSource, ByteSource];
  return [new StreamedString(text, 'text', size), new StreamedString(structured, 'text', size)];
}
