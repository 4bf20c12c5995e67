// Special files inside a root: a named pipe (FIFO) blocked the reading thread forever (four such reads
// and no file request was answered again), and so did writing one. Every read and write now opens without
// blocking, checks what it opened, and refuses anything that is not a regular file, so the next request
// is answered as usual.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { FsSession, makeTempDir, removeDir, textOf } from '../support/fs-harness.js';

describe('serve fs: special files inside a root', { timeout: 20_000 }, () => {
  let root: string;
  let session: FsSession;

  before(async () => {
    root = await makeTempDir('mcpwire-fs-special-');
    // mkfifo is in coreutils, on every machine this project runs on.
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    await writeFile(path.join(root, 'plain.txt'), 'plain');
    session = await FsSession.start({ roots: [root] });
  });

  after(async () => {
    await session?.close();
    await removeDir(root);
  });

  it('bug: reading a FIFO blocked forever; every read tool refuses it, and the server goes on', async () => {
    // More reads of the pipe than the thread pool has threads: before, these starved every later request.
    const reads = await Promise.all([
      session.callTool('read_text_file', { path: 'pipe' }),
      session.callTool('read_media_file', { path: 'pipe' }),
      session.callTool('read_text_file', { path: 'pipe' }),
      session.callTool('read_media_file', { path: 'pipe' }),
      session.callTool('read_text_file', { path: 'pipe' }),
    ]);
    for (const result of reads) {
      assert.equal(result.isError, true);
      assert.match(textOf(result), /pipe is a named pipe \(FIFO\), not a regular file/);
    }
    const multiple = await session.callTool('read_multiple_files', { paths: ['pipe', 'plain.txt'] });
    assert.match(textOf(multiple), /pipe: Error - pipe is a named pipe/);
    assert.match(textOf(multiple), /plain\.txt:\nplain/);
    const error = await session.requestError('resources/read', {
      uri: pathToFileURL(path.join(root, 'pipe')).href,
    });
    assert.equal(error.code, -32602);
    assert.match(error.message, /named pipe/);
    const plain = await session.callTool('read_text_file', { path: 'plain.txt' });
    assert.equal(textOf(plain), 'plain');
  });

  it('bug: edit_file read a FIFO with a blocking read; it refuses it as the read tools do', async () => {
    const writer = await FsSession.start({ roots: [root], write: true });
    try {
      const result = await writer.callTool('edit_file', {
        path: 'pipe',
        edits: [{ oldText: 'a', newText: 'b' }],
      });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /pipe is a named pipe \(FIFO\), not a regular file/);
      const plain = await writer.callTool('read_text_file', { path: 'plain.txt' });
      assert.equal(textOf(plain), 'plain');
    } finally {
      await writer.close();
    }
  });

  it('bug: write_file opened a FIFO for writing, which blocks until a reader comes; it refuses it', async () => {
    const writer = await FsSession.start({ roots: [root], write: true });
    try {
      const result = await writer.callTool('write_file', { path: 'pipe', content: 'x' });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /pipe is a named pipe \(FIFO\); only regular files are written/);
      const plain = await writer.callTool('read_text_file', { path: 'plain.txt' });
      assert.equal(textOf(plain), 'plain');
    } finally {
      await writer.close();
    }
  });
});
