// serve fs bounds every answer by what it will weigh on the wire, not by the bytes of the file: a text is
// sent twice (content and structuredContent), and JSON escapes a '"' as two bytes, so 400 KB of '"' made a
// 1.6 MB answer under a 1 MiB limit; read_multiple_files checked each file but not the sum (three files of
// 300 KB: 1.8 MB). Each answer here is measured as the JSON it is.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FsSession, makeTempDir, removeDir, textOf } from '../support/fs-harness.js';

const LIMIT = 1 << 20;
let root: string;
let session: FsSession;

before(async () => {
  root = await makeTempDir('mcpwire-fs-size-');
  await writeFile(path.join(root, 'quotes.txt'), '"'.repeat(400_000));
  for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(path.join(root, name), 'x'.repeat(300_000));
  await writeFile(path.join(root, 'escaped.txt'), '\u0001'.repeat(200_000));
  session = await FsSession.start({ roots: [root], maxMessageSize: LIMIT });
});

after(async () => {
  await session.close();
  await removeDir(root);
});

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('serve fs: answers bounded by their bytes on the wire', () => {
  it("bug: read_text_file of 400 KB of '\"' made a 1.6 MB answer; it is refused, saying how to read a part", async () => {
    const result = await session.callTool('read_text_file', { path: 'quotes.txt' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /its text takes 1600000 bytes in the answer \(2 copies/);
    assert.match(textOf(result), /read a part of it \(head, tail\)/);
    // A part of it fits.
    const part = await session.callTool('read_text_file', { path: 'a.txt', head: 1 });
    assert.notEqual(part.isError, true, textOf(part));
  });

  it('bug: read_multiple_files checked each file, not the sum; the files that do not fit are left out, saying so', async () => {
    const result = await session.callTool('read_multiple_files', { paths: ['a.txt', 'b.txt', 'c.txt'] });
    const files = (
      result.structuredContent as { files: Array<{ path: string; content?: string; error?: string }> }
    ).files;
    assert.deepEqual(
      files.map((f) => (f.content === undefined ? 'left out' : 'read')),
      ['read', 'left out', 'left out'],
    );
    assert.match(
      files[1]!.error!,
      /left out: with it the answer would be larger than the maximum message size/,
    );
    assert.ok(bytes(result) <= LIMIT, `${bytes(result)} bytes`);
  });

  it('resources/read counts escaping too: 200,000 control characters are 1.2 MB of JSON', async () => {
    const error = await session.requestError('resources/read', {
      uri: `file://${path.join(root, 'escaped.txt')}`,
    });
    assert.equal(error.code, -32603);
    assert.match(error.message, /its text takes 1200000 bytes in the answer \(JSON escaping included\)/);
  });
});
