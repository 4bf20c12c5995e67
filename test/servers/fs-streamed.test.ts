// serve fs writes a file of 1 MiB or more into resources/read's answer as it reads it (issue 21), instead
// of reading it whole, decoding it and escaping it into a second string. The answer must be the one the
// whole read gave: the same text (every escape, characters cut by a chunk's end), base64 for binary and for
// text that is not UTF-8, the same size limit (escapes counted), and other answers unharmed meanwhile.
// Over byte streams (as on stdio) the value is spliced into the frame; over an in-memory pair the
// connection reads it into a string first.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { FsSession, makeTempDir, removeDir } from '../support/fs-harness.js';

const MiB = 1024 * 1024;
let root: string;
const files: Record<string, Buffer> = {};

/** Text with every kind of JSON escape and characters of 1 to 4 bytes, about `size` bytes of it. */
function awkwardText(size: number): Buffer {
  const piece = 'line "quoted" back\\slash\ttab\r\n\u0000\u0001\u001f\u007f é € 中 😀 ';
  return Buffer.from(piece.repeat(Math.ceil(size / Buffer.byteLength(piece))), 'utf8');
}

before(async () => {
  root = await makeTempDir('mcpwire-fs-streamed-');
  files['awkward.txt'] = awkwardText(3 * MiB);
  // A 3-byte character across the first chunk's end (1 MiB) of the UTF-8 check.
  files['boundary.txt'] = Buffer.concat([
    Buffer.alloc(MiB - 1, 0x61),
    Buffer.from('€€€'),
    Buffer.alloc(1000, 0x62),
  ]);
  files['binary.bin'] = Buffer.from(Array.from({ length: 2 * MiB + 1 }, (_, i) => (i * 7919) % 256));
  // text/plain by its name, but not UTF-8 (a lone continuation byte): sent as base64.
  files['latin1.txt'] = Buffer.concat([
    Buffer.alloc(MiB + 10, 0x41),
    Buffer.from([0xe9]),
    Buffer.alloc(10, 0x41),
  ]);
  // 1.5 MiB of one control character: 9 MiB inside a JSON string.
  files['controls.txt'] = Buffer.alloc(1.5 * MiB, 0x01);
  for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(root, name), bytes);
});

after(async () => {
  await removeDir(root);
});

const uriOf = (name: string) => pathToFileURL(path.join(root, name)).href;

interface Contents {
  uri: string;
  mimeType: string;
  text?: string;
  blob?: string;
}

async function read(session: FsSession, name: string): Promise<Contents> {
  const result = await session.client.request<{ contents: Contents[] }>('resources/read', {
    uri: uriOf(name),
  });
  assert.equal(result.contents.length, 1);
  return result.contents[0]!;
}

for (const transport of ['stream', 'memory'] as const) {
  describe(`serve fs, resources/read of files of 1 MiB or more, over ${transport === 'stream' ? 'byte streams (spliced)' : 'an in-memory pair (read into a string)'}`, () => {
    let session: FsSession;
    before(async () => {
      session = await FsSession.start({ roots: [root], transport, maxMessageSize: 8 * MiB });
    });
    after(async () => {
      await session.close();
    });

    it('answers the exact text: every escape, characters of 1 to 4 bytes', async () => {
      const contents = await read(session, 'awkward.txt');
      assert.equal(contents.mimeType, 'text/plain');
      assert.equal(contents.text, files['awkward.txt']!.toString('utf8'));
    });

    it('checks UTF-8 across the end of a chunk', async () => {
      const contents = await read(session, 'boundary.txt');
      assert.equal(contents.text, files['boundary.txt']!.toString('utf8'));
    });

    it('answers a binary file as base64', async () => {
      const contents = await read(session, 'binary.bin');
      assert.equal(contents.text, undefined);
      assert.equal(contents.blob, files['binary.bin']!.toString('base64'));
    });

    it('answers a text/plain file that is not UTF-8 as base64, as a whole read did', async () => {
      const contents = await read(session, 'latin1.txt');
      assert.equal(contents.mimeType, 'text/plain');
      assert.equal(contents.blob, files['latin1.txt']!.toString('base64'));
    });

    it('refuses a file whose escaped text exceeds the limit, counting the escapes, before a byte is sent', async () => {
      const error = await session.requestError('resources/read', { uri: uriOf('controls.txt') });
      assert.match(error.message, /its text takes 9437184 bytes in the answer \(JSON escaping included\)/);
      assert.match(error.message, /--max-message-size 10MiB/);
      // The session goes on.
      assert.deepEqual(await session.client.request('ping'), {});
    });

    it('answers other requests while a large file is written, none of them harmed', async () => {
      const reads = [read(session, 'awkward.txt'), read(session, 'binary.bin')];
      const pings = Array.from({ length: 20 }, () => session.client.request('ping'));
      const [text, binary] = await Promise.all(reads);
      assert.deepEqual(
        await Promise.all(pings),
        Array.from({ length: 20 }, () => ({})),
      );
      assert.equal(text!.text, files['awkward.txt']!.toString('utf8'));
      assert.equal(binary!.blob, files['binary.bin']!.toString('base64'));
    });
  });
}
