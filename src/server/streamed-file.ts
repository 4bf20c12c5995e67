// A file as a StreamedString (jsonrpc/streamed.ts): a resource's `text` or `blob` written into the answer
// as the file is read, never held whole. The next chunk is read while the last one is written.

import type { FileHandle } from 'node:fs/promises';
import { type ByteSource, type StreamedEncoding, StreamedString } from '../jsonrpc/streamed.js';
import { nodeFsPromises } from '../transport/platform/builtins.js';

/** Bytes read at a time: large enough that a 100 MiB file costs a hundred reads, small beside the file. */
const CHUNK = 1024 * 1024;

/**
 * Reads an open file from its start, one chunk ahead, and closes it at the end (or when released).
 * `size` bounds what is read: a file that grows meanwhile is read as it was when measured.
 */
export function fileSource(handle: FileHandle, size: number): ByteSource {
  return readFrom(handle, size, () => handle.close());
}

/**
 * `count` sources over one open file, each reading it whole from its start (one answer that carries a
 * file twice: a tool's text and its structured content). The file is closed once every source is.
 */
export function fileSources(handle: FileHandle, size: number, count: number): ByteSource[] {
  let open = count;
  const closeOne = async () => {
    if (--open === 0) await handle.close();
  };
  return Array.from({ length: count }, () => readFrom(handle, size, closeOne));
}

function readFrom(handle: FileHandle, size: number, closeHandle: () => Promise<void>): ByteSource {
  let position = 0;
  let closed = false;
  const readChunk = async (): Promise<Uint8Array | null> => {
    if (closed || position >= size) return null;
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, size - position));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return null; // shrunk since it was measured: what is there is the file
    position += bytesRead;
    return bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
  };
  let ahead: Promise<Uint8Array | null> | undefined;
  return {
    async read() {
      const chunk = await (ahead ?? readChunk());
      ahead = chunk ? readChunk() : undefined;
      // A read ahead that fails is reported by the next read(); until then it must not go unhandled.
      ahead?.catch(() => undefined);
      return chunk;
    },
    close() {
      if (closed) return;
      closed = true;
      // Wait for a read in flight before closing the handle under it.
      void Promise.resolve(ahead)
        .catch(() => undefined)
        .then(closeHandle)
        .catch(() => undefined);
    },
  };
}

/** The file at `path` as a streamed `text` (UTF-8, as the caller has checked) or `base64` value. */
export async function streamedFile(path: string, encoding: StreamedEncoding): Promise<StreamedString> {
  const handle = await nodeFsPromises().open(path, 'r');
  try {
    const { size } = await handle.stat();
    return new StreamedString(fileSource(handle, size), encoding, size);
  } catch (error) {
    await handle.close();
    throw error;
  }
}
