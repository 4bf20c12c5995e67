// serve fs against names and moves a careless or hostile client (or a file someone else made) brings:
// a file name with a newline forged a "[DIR]" line in list_directory's text, and with two roots,
// move_file moved one root into the other, which then disappeared.

import assert from 'node:assert/strict';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { FsSession, makeTempDir, removeDir, textOf } from '../support/fs-harness.js';

describe('serve fs: hostile names and moves', () => {
  const made: string[] = [];
  const temp = async () => {
    const dir = await makeTempDir('mcpwire-fs-hostile-');
    made.push(dir);
    return dir;
  };
  after(async () => {
    for (const dir of made) await removeDir(dir);
  });

  it('bug: a name with a newline forged a [DIR] line in list_directory; control characters are escaped', async () => {
    const root = await temp();
    await writeFile(path.join(root, 'evil\n[DIR] secrets'), 'x');
    await writeFile(path.join(root, 'fine.txt'), 'x');
    const session = await FsSession.start({ roots: [root] });
    try {
      const result = await session.callTool('list_directory', { path: '.' });
      const lines = textOf(result).split('\n');
      assert.deepEqual(lines, ['[FILE] evil\\n[DIR] secrets', '[FILE] fine.txt'], 'one line per entry');
      const names = (result.structuredContent as { entries: Array<{ name: string }> }).entries.map(
        (e) => e.name,
      );
      assert.ok(names.includes('evil\n[DIR] secrets'), 'the structured result keeps the exact name');
      const found = await session.callTool('search_files', { path: '.', pattern: '**/evil*' });
      assert.equal(textOf(found).split('\n').length, 1);
    } finally {
      await session.close();
    }
  });

  it('bug: with two roots, move_file moved one root into the other; a root cannot be moved', async () => {
    const first = await temp();
    const second = await temp();
    await mkdir(path.join(first, 'inside'));
    const session = await FsSession.start({ roots: [first, second], write: true });
    try {
      const result = await session.callTool('move_file', {
        source: second,
        destination: path.join(first, 'taken'),
      });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /is an allowed directory itself; it cannot be moved/);
      assert.ok((await stat(second)).isDirectory(), 'the root is still there');
      // Moving what is inside a root still works.
      const inside = await session.callTool('move_file', {
        source: path.join(first, 'inside'),
        destination: path.join(second, 'inside'),
      });
      assert.notEqual(inside.isError, true, textOf(inside));
    } finally {
      await session.close();
    }
  });
});
