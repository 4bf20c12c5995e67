// serve fs writes a file of 1 MiB or more into resources/read's answer as it reads it (issue 21), instead
// of reading it whole, decoding it and escaping it into a second string. The answer must be the one the
// whole read gave: the same text (every escape, characters cut by a chunk's end), base64 for binary and for
// text that is not UTF-8, the same size limit (escapes counted), and other answers unharmed meanwhile.
// Over byte streams (as on stdio) the value is spliced into the frame; over an in-memory pair the
// connection reads it into a string first.

import assert from 'node:assert/strict';
import { readdirSync, readlinkSync, realpathSync } from 'node:fs';
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
  // read_text_file answers a text twice (text and structured content): this one fits twice in 8 MiB.
  files['awkward-small.txt'] = awkwardText(1.5 * MiB);
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

/** Files this process has open (Linux). */
/**
 * How many files under the test's root this process has open. Only those: the unit suite runs every file
 * in one process, and a descriptor another test opened or closed meanwhile made a count of them all flaky.
 */
const openFiles = () => {
  // The links name real paths: a temporary directory reached through a symbolic link would match none.
  const real = realpathSync(root);
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(real);
    } catch {
      return false; // closed between the listing and the look (the listing's own descriptor, for one)
    }
  }).length;
};

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

    it('read_text_file answers the exact text of a large file, as text and as structured content', async () => {
      for (const name of ['awkward-small.txt', 'boundary.txt']) {
        const expected = files[name]!.toString('utf8');
        session.serverWrites.largest = 0;
        const result = await session.callTool('read_text_file', { path: path.join(root, name) });
        assert.equal(result.isError, undefined, name);
        assert.deepEqual(result.content, [{ type: 'text', text: expected }], name);
        assert.deepEqual(result.structuredContent, { content: expected }, name);
        if (transport === 'stream' && name === 'awkward-small.txt') {
          // Written as it was read, a chunk (1 MiB, escaped) at a time: never the whole frame at once.
          const frame = Buffer.byteLength(JSON.stringify(result));
          assert.ok(
            session.serverWrites.largest < frame / 2,
            `${name}: a write of ${session.serverWrites.largest} bytes, of a ${frame}-byte answer`,
          );
        }
      }
    });

    it('read_text_file decodes a large file that is not UTF-8 as a whole read does', async () => {
      const result = await session.callTool('read_text_file', { path: path.join(root, 'latin1.txt') });
      const expected = files['latin1.txt']!.toString('utf8');
      assert.ok(expected.includes('\uFFFD'));
      assert.deepEqual(result.structuredContent, { content: expected });
    });

    it('read_text_file refuses a large file whose two escaped copies exceed the limit, before a byte is sent', async () => {
      const text = files['awkward.txt']!.toString('utf8');
      const escaped = Buffer.byteLength(JSON.stringify(text)) - 2;
      const result = await session.callTool('read_text_file', { path: path.join(root, 'awkward.txt') });
      assert.equal(result.isError, true);
      assert.match(
        String(result.content[0]!.text),
        new RegExp(
          `its text takes ${2 * escaped} bytes in the answer \\(2 copies, as text and as structured content`,
        ),
      );
      // head and tail read the file whole and answer the lines asked for.
      const head = await session.callTool('read_text_file', {
        path: path.join(root, 'awkward.txt'),
        head: 1,
      });
      assert.deepEqual(head.structuredContent, { content: text.slice(0, text.indexOf('\n')) });
    });

    it('read_text_file closes the file once both copies are written', async () => {
      const before = openFiles();
      await session.callTool('read_text_file', { path: path.join(root, 'awkward-small.txt') });
      // The last source closes the file after its last chunk: a few round trips later it is closed.
      for (let i = 0; i < 50 && openFiles() !== before; i++) await session.client.request('ping');
      assert.equal(openFiles(), before);
    });
  });
}
