// serve fs against another local process that swaps a directory inside a root for a symbolic link to a
// directory outside, between the server's check of a path and its use. In one attack run 840 of 1,821
// writes landed outside the root and list_directory listed /etc. The tests are deterministic: the server's
// test-only afterCheck hook runs in that window, and the test makes the swap there.
//
// On Linux every write and listing works through a handle of a directory checked to be inside a root, so
// the swap is refused (or, for an entry found during a walk, skipped). Elsewhere the server uses names as
// before; these tests run on Linux only.

import assert from 'node:assert/strict';
import { existsSync, renameSync, symlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { FsSession, makeTempDir, removeDir, textOf } from '../support/fs-harness.js';

const SECRET = 'SECRET-OUTSIDE';

describe('serve fs: a directory swapped for a link to outside between check and use', {
  skip: process.platform !== 'linux' && 'the guarantee holds where /proc names what a handle points at',
}, () => {
  const made: string[] = [];
  after(async () => {
    for (const dir of made) await removeDir(dir);
  });

  /** A root and an outside directory side by side, each holding `tree`; a session over the root. */
  async function setup(
    tree: { root?: Record<string, string>; outside?: Record<string, string> },
    swap: string,
    { linkTo = '', when }: { linkTo?: string; when?: (directory: string, target: string) => boolean } = {},
  ): Promise<{ root: string; outside: string; session: FsSession; swapped: () => boolean }> {
    const base = await makeTempDir('mcpwire-fs-races-');
    made.push(base);
    const root = path.join(base, 'root');
    const outside = path.join(base, 'outside');
    for (const [top, files] of [
      [root, tree.root ?? {}],
      [outside, tree.outside ?? {}],
    ] as const) {
      await mkdir(top, { recursive: true });
      for (const [relative, content] of Object.entries(files)) {
        const full = path.join(top, relative);
        // A name ending in "/" is an empty directory.
        if (relative.endsWith('/')) await mkdir(full, { recursive: true });
        else {
          await mkdir(path.dirname(full), { recursive: true });
          await writeFile(full, content);
        }
      }
    }
    // The attacker: the first time the server is about to use `swap` (or a directory below it), it is
    // moved aside and a link to the outside directory (or to `linkTo` in it) takes its place.
    const target = path.join(root, swap);
    const due = when ?? ((directory: string) => directory === target || directory.startsWith(`${target}/`));
    let done = false;
    const session = await FsSession.start({
      roots: [root],
      write: true,
      afterCheck: (directory) => {
        if (done || !due(directory, target)) return;
        done = true;
        renameSync(target, `${target}.moved`);
        symlinkSync(path.join(outside, linkTo), target);
      },
    });
    return { root, outside, session, swapped: () => done };
  }

  async function outsideFiles(outside: string): Promise<string[]> {
    return (await readdir(outside, { recursive: true })).map(String).sort();
  }

  it('write_file: the parent swapped after the check; nothing is written outside', async () => {
    const { outside, session, swapped } = await setup({ root: { 'sub/': '' } }, 'sub');
    try {
      const result = await session.callTool('write_file', { path: 'sub/new.txt', content: 'PWNED' });
      assert.ok(swapped(), 'the swap happened');
      assert.deepEqual(await outsideFiles(outside), []);
      assert.equal(result.isError, true, textOf(result));
    } finally {
      await session.close();
    }
  });

  it('write_file: the file itself swapped for a link to outside; the link is not followed', async () => {
    const { outside, session, swapped } = await setup(
      { root: { 'file.txt': 'mine' }, outside: { 'target.txt': SECRET } },
      'file.txt',
      { linkTo: 'target.txt', when: (directory, target) => directory === path.dirname(target) },
    );
    try {
      const result = await session.callTool('write_file', { path: 'file.txt', content: 'PWNED' });
      assert.ok(swapped());
      assert.equal(await readFile(path.join(outside, 'target.txt'), 'utf8'), SECRET);
      assert.equal(result.isError, true, textOf(result));
    } finally {
      await session.close();
    }
  });

  it('edit_file: the parent swapped after the check; the outside file keeps its content', async () => {
    const { outside, session, swapped } = await setup(
      { root: { 'sub/f.txt': 'hello' }, outside: { 'f.txt': 'hello' } },
      'sub',
    );
    try {
      const result = await session.callTool('edit_file', {
        path: 'sub/f.txt',
        edits: [{ oldText: 'hello', newText: 'PWNED' }],
      });
      assert.ok(swapped());
      assert.equal(await readFile(path.join(outside, 'f.txt'), 'utf8'), 'hello');
      assert.equal(result.isError, true, textOf(result));
    } finally {
      await session.close();
    }
  });

  it('create_directory: a level swapped after the check; nothing is created outside', async () => {
    const { outside, session, swapped } = await setup({ root: { 'sub/': '' } }, 'sub');
    try {
      const result = await session.callTool('create_directory', { path: 'sub/new/deeper' });
      assert.ok(swapped());
      assert.deepEqual(await outsideFiles(outside), []);
      assert.equal(result.isError, true, textOf(result));
    } finally {
      await session.close();
    }
  });

  it('move_file: the source directory swapped; no outside file is moved in', async () => {
    const { root, outside, session, swapped } = await setup(
      { root: { 'sub/a.txt': 'mine' }, outside: { 'a.txt': SECRET } },
      'sub',
    );
    try {
      const result = await session.callTool('move_file', { source: 'sub/a.txt', destination: 'b.txt' });
      assert.ok(swapped());
      assert.equal(await readFile(path.join(outside, 'a.txt'), 'utf8'), SECRET);
      assert.equal(existsSync(path.join(root, 'b.txt')), false);
      assert.equal(result.isError, true, textOf(result));
    } finally {
      await session.close();
    }
  });

  it('move_file: the destination directory swapped; nothing is moved out', async () => {
    const { root, outside, session, swapped } = await setup({ root: { 'a.txt': 'mine', 'sub/': '' } }, 'sub');
    try {
      const result = await session.callTool('move_file', { source: 'a.txt', destination: 'sub/b.txt' });
      assert.ok(swapped());
      assert.deepEqual(await outsideFiles(outside), []);
      assert.equal(await readFile(path.join(root, 'a.txt'), 'utf8'), 'mine');
      assert.equal(result.isError, true, textOf(result));
    } finally {
      await session.close();
    }
  });

  it('list_directory: the directory swapped after the check; the outside one is not listed', async () => {
    const { session, swapped } = await setup(
      { root: { 'sub/mine.txt': '' }, outside: { 'secret.txt': SECRET } },
      'sub',
    );
    try {
      const result = await session.callTool('list_directory', { path: 'sub' });
      assert.ok(swapped());
      assert.doesNotMatch(JSON.stringify(result), /secret/);
      assert.equal(result.isError, true, textOf(result));
    } finally {
      await session.close();
    }
  });

  it('list_directory: a directory above it swapped after the check; the outside one is not listed', async () => {
    const { session, swapped } = await setup(
      { root: { 'a/b/mine.txt': '' }, outside: { 'b/secret.txt': SECRET } },
      'a',
    );
    try {
      const result = await session.callTool('list_directory', { path: 'a/b' });
      assert.ok(swapped());
      assert.doesNotMatch(JSON.stringify(result), /secret/);
      assert.equal(result.isError, true, textOf(result));
    } finally {
      await session.close();
    }
  });

  for (const [tool, args] of [
    ['directory_tree', { path: '.' }],
    ['search_files', { path: '.', pattern: '*' }],
  ] as const) {
    it(`${tool}: a directory swapped during the walk; the outside one is not listed`, async () => {
      const { session, swapped } = await setup(
        { root: { 'sub/mine.txt': '', 'top.txt': '' }, outside: { 'secret.txt': SECRET } },
        'sub',
      );
      try {
        const result = await session.callTool(tool, args);
        assert.ok(swapped());
        assert.notEqual(result.isError, true, textOf(result));
        assert.doesNotMatch(JSON.stringify(result), /secret/);
        assert.match(textOf(result), /top\.txt/);
      } finally {
        await session.close();
      }
    });
  }

  it('resources/list: a directory swapped during the walk; no outside file is listed', async () => {
    const { session, swapped } = await setup(
      { root: { 'sub/mine.txt': '', 'top.txt': '' }, outside: { 'secret.txt': SECRET } },
      'sub',
    );
    try {
      const result = await session.request<{ resources: Array<{ uri: string }> }>('resources/list');
      assert.ok(swapped());
      assert.doesNotMatch(JSON.stringify(result), /secret/);
      assert.ok(result.resources.some((r) => r.uri.endsWith('/top.txt')));
    } finally {
      await session.close();
    }
  });
});
