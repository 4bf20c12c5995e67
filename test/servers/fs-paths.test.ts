// The filesystem server never reads, lists or writes outside its roots. Every tool (write tools too, with
// both paths of move_file) and resources/read is attacked with "..", absolute paths outside, a sibling
// whose name starts with the root's name, symlinks inside the root that point out (to a file, to a
// directory, dangling), a symlinked directory component, percent-encoded dots in file:// URIs, NUL bytes
// and backslashes. Each attack must be refused (a tool result with isError naming the allowed
// directories; a JSON-RPC error for resources/read), must not leak anything from outside, and must leave
// every file of the fixture exactly as it was.
//
// Layout (base is a fresh temporary directory):
//   base/data/               the root
//     inside.txt, sub/inner.txt
//     link-inside  -> data/inside.txt           (a symlink that stays inside: allowed)
//     link-file    -> base/secret/secret.txt
//     link-dir     -> base/secret
//     dangling     -> base/secret/created-through-link.txt   (does not exist)
//     dangling-dir -> base/secret/dir-through-link           (does not exist)
//   base/data-secret/sibling.txt, never-named.txt
//   base/secret/secret.txt, never-named.txt, nested/deep.txt

import assert from 'node:assert/strict';
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { FsSession, makeTempDir, removeDir, type ToolResult, textOf } from '../support/fs-harness.js';

const SECRET = 'TOP-SECRET-CONTENT';
const INSIDE = 'inside content\n';

let base: string;
let root: string;
let session: FsSession;
let snapshotBefore: Map<string, string>;

/** Every entry below base: files with their content, directories, symlinks with their targets. */
async function snapshot(directory = base, into = new Map<string, string>()): Promise<Map<string, string>> {
  for (const name of (await readdir(directory)).sort()) {
    const full = path.join(directory, name);
    const info = await lstat(full);
    const key = path.relative(base, full);
    if (info.isSymbolicLink()) into.set(key, `link -> ${await readlink(full)}`);
    else if (info.isDirectory()) {
      into.set(key, 'dir');
      await snapshot(full, into);
    } else into.set(key, `file: ${await readFile(full, 'utf8')}`);
  }
  return into;
}

before(async () => {
  base = await makeTempDir('mcpwire-fs-paths-');
  root = path.join(base, 'data');
  const secret = path.join(base, 'secret');
  const sibling = path.join(base, 'data-secret');
  await mkdir(path.join(root, 'sub'), { recursive: true });
  await mkdir(path.join(secret, 'nested'), { recursive: true });
  await mkdir(sibling);
  await writeFile(path.join(root, 'inside.txt'), INSIDE);
  await writeFile(path.join(root, 'sub', 'inner.txt'), 'inner\n');
  await writeFile(path.join(secret, 'secret.txt'), `${SECRET} 1\n`);
  await writeFile(path.join(secret, 'never-named.txt'), `${SECRET} 2\n`);
  await writeFile(path.join(secret, 'nested', 'deep.txt'), `${SECRET} 3\n`);
  await writeFile(path.join(sibling, 'sibling.txt'), `${SECRET} 4\n`);
  await writeFile(path.join(sibling, 'never-named.txt'), `${SECRET} 5\n`);
  await symlink(path.join(root, 'inside.txt'), path.join(root, 'link-inside'));
  await symlink(path.join(secret, 'secret.txt'), path.join(root, 'link-file'));
  await symlink(secret, path.join(root, 'link-dir'));
  await symlink(path.join(secret, 'created-through-link.txt'), path.join(root, 'dangling'));
  await symlink(path.join(secret, 'dir-through-link'), path.join(root, 'dangling-dir'));
  session = await FsSession.start({ roots: [root], write: true });
});

after(async () => {
  await session?.close();
  if (base) await removeDir(base);
});

beforeEach(async () => {
  snapshotBefore = await snapshot();
});

afterEach(async () => {
  // Nothing anywhere in the fixture (outside the root or in it) was created, changed or removed.
  assert.deepEqual(await snapshot(), snapshotBefore);
});

function assertNoLeak(value: unknown): void {
  const json = JSON.stringify(value);
  assert.ok(!json.includes(SECRET), `content from outside the root leaked: ${json}`);
  assert.ok(!json.includes('never-named'), `a name from outside the root leaked: ${json}`);
  assert.ok(!json.includes('deep.txt'), `a name from outside the root leaked: ${json}`);
}

function assertRefused(result: ToolResult): void {
  assert.equal(result.isError, true, `expected a refusal, got ${JSON.stringify(result)}`);
  const text = textOf(result);
  assert.match(text, /^Access denied: /);
  assert.ok(text.endsWith(`Allowed directories: ${root}`), `the refusal names no allowed directory: ${text}`);
  assert.equal(result.structuredContent, undefined);
  assertNoLeak(result);
}

interface Attack {
  name: string;
  value: () => string;
}

/** Paths to existing files outside the root (or refused for their form alone). */
const FILE_ATTACKS: Attack[] = [
  { name: '".." up and out', value: () => '../secret/secret.txt' },
  { name: '".." after a real subdirectory', value: () => 'sub/../../secret/secret.txt' },
  { name: 'an absolute path outside', value: () => path.join(base, 'secret', 'secret.txt') },
  { name: 'a sibling whose name starts with the root name', value: () => '../data-secret/sibling.txt' },
  {
    name: 'an absolute path into the prefix sibling',
    value: () => path.join(`${root}-secret`, 'sibling.txt'),
  },
  { name: 'a symlink inside pointing to a file outside', value: () => 'link-file' },
  { name: 'a symlinked directory component', value: () => 'link-dir/secret.txt' },
  { name: 'a NUL byte', value: () => 'inside.txt\0' },
  { name: 'a NUL byte hiding a ".."', value: () => 'inside.txt\0/../../secret/secret.txt' },
  { name: 'backslashes', value: () => '..\\secret\\secret.txt' },
];

/** Paths to existing directories outside the root. */
const DIRECTORY_ATTACKS: Attack[] = [
  { name: '".."', value: () => '..' },
  { name: '".." up and out', value: () => '../secret' },
  { name: '".." after a real subdirectory', value: () => 'sub/../..' },
  { name: 'an absolute path outside', value: () => path.join(base, 'secret') },
  { name: 'a sibling whose name starts with the root name', value: () => '../data-secret' },
  { name: 'an absolute path to the prefix sibling', value: () => `${root}-secret` },
  { name: 'a symlink inside pointing to a directory outside', value: () => 'link-dir' },
  { name: 'a symlinked directory component', value: () => 'link-dir/nested' },
  { name: 'a NUL byte', value: () => 'sub\0' },
  { name: 'backslashes', value: () => '..\\secret' },
];

/** Paths of files that do not exist yet, outside the root (or refused for their form alone). */
const NEW_FILE_ATTACKS: Attack[] = [
  { name: '".." up and out', value: () => '../secret/new.txt' },
  { name: '".." after a real subdirectory', value: () => 'sub/../../secret/new.txt' },
  { name: 'an absolute path outside', value: () => path.join(base, 'secret', 'new.txt') },
  { name: 'a sibling whose name starts with the root name', value: () => '../data-secret/new.txt' },
  { name: 'an absolute path into the prefix sibling', value: () => path.join(`${root}-secret`, 'new.txt') },
  { name: 'a symlink inside pointing to a file outside', value: () => 'link-file' },
  { name: 'a dangling symlink pointing outside', value: () => 'dangling' },
  { name: 'a symlinked directory component', value: () => 'link-dir/new.txt' },
  { name: 'a NUL byte', value: () => 'new.txt\0' },
  { name: 'backslashes', value: () => '..\\secret\\new.txt' },
];

/** Directories that do not exist yet, outside the root. */
const NEW_DIRECTORY_ATTACKS: Attack[] = [
  { name: '".." up and out', value: () => '../secret/newdir' },
  { name: '".." out through missing levels', value: () => 'a/b/../../../secret/newdir' },
  { name: 'an absolute path outside', value: () => path.join(base, 'secret', 'newdir', 'deeper') },
  { name: 'a sibling whose name starts with the root name', value: () => '../data-secret/newdir' },
  { name: 'a symlinked directory component', value: () => 'link-dir/newdir' },
  { name: 'several missing levels below a symlinked directory', value: () => 'link-dir/a/b/c' },
  { name: 'a dangling symlink pointing outside', value: () => 'dangling-dir' },
  { name: 'a level below a dangling symlink pointing outside', value: () => 'dangling-dir/inner' },
  { name: 'a dangling symlink reached through ".."', value: () => 'missing/../dangling-dir/x' },
  { name: 'a NUL byte', value: () => 'newdir\0' },
  { name: 'backslashes', value: () => '..\\secret\\newdir' },
];

function eachAttack(attacks: Attack[], call: (target: string) => Promise<ToolResult>, variant = ''): void {
  for (const attack of attacks) {
    it(`refuses ${attack.name}${variant}`, async () => {
      assertRefused(await call(attack.value()));
    });
  }
}

describe('read_text_file', () => {
  eachAttack(FILE_ATTACKS, (p) => session.callTool('read_text_file', { path: p }));
  eachAttack(FILE_ATTACKS, (p) => session.callTool('read_text_file', { path: p, tail: 1 }), ' (with tail)');
});

describe('read_media_file', () => {
  eachAttack(FILE_ATTACKS, (p) => session.callTool('read_media_file', { path: p }));
});

describe('read_multiple_files', () => {
  // The tool reports each file on its own: a refused path is an error entry, the other files are read.
  for (const attack of FILE_ATTACKS) {
    it(`refuses ${attack.name}, still reading the allowed file beside it`, async () => {
      const target = attack.value();
      const result = await session.callTool('read_multiple_files', { paths: ['inside.txt', target] });
      assert.notEqual(result.isError, true);
      const files = result.structuredContent?.files as Array<Record<string, unknown>>;
      assert.deepEqual(files[0], { path: 'inside.txt', content: INSIDE });
      assert.equal(files[1]?.path, target);
      assert.equal(files[1]?.content, undefined);
      assert.match(String(files[1]?.error), /^Access denied: /);
      assert.ok(String(files[1]?.error).endsWith(`Allowed directories: ${root}`));
      assert.ok(textOf(result).includes(`Allowed directories: ${root}`));
      assertNoLeak(result);
    });
  }
});

describe('get_file_info', () => {
  eachAttack(FILE_ATTACKS, (p) => session.callTool('get_file_info', { path: p }), ' (file)');
  eachAttack(DIRECTORY_ATTACKS, (p) => session.callTool('get_file_info', { path: p }), ' (directory)');
});

describe('list_directory', () => {
  eachAttack(DIRECTORY_ATTACKS, (p) => session.callTool('list_directory', { path: p }));
});

describe('directory_tree', () => {
  eachAttack(DIRECTORY_ATTACKS, (p) => session.callTool('directory_tree', { path: p }));

  it('shows a symlink to a directory outside as a symlink, without following it', async () => {
    const result = await session.callTool('directory_tree', { path: '.' });
    assert.notEqual(result.isError, true);
    const tree = result.structuredContent?.tree as Array<{ name: string; type: string; children?: unknown }>;
    assert.deepEqual(
      tree.find((e) => e.name === 'link-dir'),
      { name: 'link-dir', type: 'symlink' },
    );
    assertNoLeak(result);
  });
});

describe('search_files', () => {
  eachAttack(DIRECTORY_ATTACKS, (p) => session.callTool('search_files', { path: p, pattern: '*' }));

  it('finds nothing outside through a pattern with ".." or through a symlinked directory', async () => {
    for (const pattern of ['../secret/*', '../**', '**/*.txt', 'never-named*', 'link-dir/**']) {
      const result = await session.callTool('search_files', { path: '.', pattern });
      assert.notEqual(result.isError, true);
      const matches = result.structuredContent?.matches as string[];
      for (const match of matches) {
        assert.ok(match.startsWith(`${root}${path.sep}`), `${pattern} matched ${match}, outside the root`);
      }
      assertNoLeak(result);
    }
  });
});

describe('write_file', () => {
  eachAttack(NEW_FILE_ATTACKS, (p) => session.callTool('write_file', { path: p, content: 'PWNED' }));
});

describe('edit_file', () => {
  eachAttack(FILE_ATTACKS, (p) =>
    session.callTool('edit_file', { path: p, edits: [{ oldText: 'TOP', newText: 'PWNED' }] }),
  );
  eachAttack(
    FILE_ATTACKS,
    (p) =>
      session.callTool('edit_file', { path: p, edits: [{ oldText: 'TOP', newText: 'X' }], dryRun: true }),
    ' (dry run)',
  );
});

describe('create_directory', () => {
  eachAttack(NEW_DIRECTORY_ATTACKS, (p) => session.callTool('create_directory', { path: p }));
});

describe('move_file source', () => {
  eachAttack(
    FILE_ATTACKS,
    (p) => session.callTool('move_file', { source: p, destination: 'moved.txt' }),
    ' (file)',
  );
  eachAttack(
    DIRECTORY_ATTACKS,
    (p) => session.callTool('move_file', { source: p, destination: 'moved-dir' }),
    ' (directory)',
  );
});

describe('move_file destination', () => {
  eachAttack(NEW_FILE_ATTACKS, (p) =>
    session.callTool('move_file', { source: 'inside.txt', destination: p }),
  );
});

describe('resources/read', () => {
  const URI_ATTACKS: Attack[] = [
    { name: 'an absolute file URI outside', value: () => `file://${base}/secret/secret.txt` },
    { name: 'a ".." segment', value: () => `file://${root}/../secret/secret.txt` },
    { name: 'percent-encoded dots', value: () => `file://${root}/%2e%2e/secret/secret.txt` },
    { name: 'upper-case percent-encoded dots', value: () => `file://${root}/%2E%2E/secret/secret.txt` },
    { name: 'half-encoded dots', value: () => `file://${root}/.%2e/secret/secret.txt` },
    {
      name: 'encoded dots after a real subdirectory',
      value: () => `file://${root}/sub/%2e%2e/%2e%2e/secret/secret.txt`,
    },
    { name: 'encoded dots and slashes', value: () => `file://${root}/%2e%2e%2fsecret%2fsecret.txt` },
    {
      name: 'a sibling whose name starts with the root name',
      value: () => `file://${root}-secret/sibling.txt`,
    },
    { name: 'a symlink inside pointing to a file outside', value: () => `file://${root}/link-file` },
    { name: 'a symlinked directory component', value: () => `file://${root}/link-dir/secret.txt` },
    { name: 'an encoded NUL byte', value: () => `file://${root}/inside.txt%00` },
  ];
  for (const attack of URI_ATTACKS) {
    it(`refuses ${attack.name} with a JSON-RPC error`, async () => {
      const uri = attack.value();
      const error = await session.requestError('resources/read', { uri });
      assert.equal(error.code, -32602);
      assert.match(error.message, /^Access denied: /);
      assert.ok(error.message.endsWith(`Allowed directories: ${root}`), error.message);
      assert.deepEqual(error.data, { uri, allowedDirectories: [root] });
      assertNoLeak({ message: error.message, data: error.data });
    });
  }

  it('takes encoded backslashes as part of a name, never as separators: not found, nothing leaks', async () => {
    // On Linux and macOS a backslash is a character of a file name, and %5C in a URI is that byte (the
    // listings give such a file this URI); "..\secret\secret.txt" is one name in the root.
    const uri = `file://${root}/..%5Csecret%5Csecret.txt`;
    const error = await session.requestError('resources/read', { uri });
    assert.equal(error.code, -32002);
    assertNoLeak({ message: error.message, data: error.data });
  });

  it('reads through encoded dots and symlinks that stay inside the root', async () => {
    for (const uri of [`file://${root}/sub/%2e%2e/inside.txt`, `file://${root}/link-inside`]) {
      const result = await session.request<{ contents: Array<{ uri: string; text?: string }> }>(
        'resources/read',
        { uri },
      );
      assert.deepEqual(
        result.contents.map((c) => [c.uri, c.text]),
        [[uri, INSIDE]],
      );
    }
  });

  it('lists no file outside the root in resources/list', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await session.request<{ resources: Array<{ uri: string }>; nextCursor?: string }>(
        'resources/list',
        cursor === undefined ? {} : { cursor },
      );
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    assert.deepEqual(uris.sort(), [`file://${root}/inside.txt`, `file://${root}/sub/inner.txt`]);
  });
});

describe('controls: the same tools work inside the root', () => {
  it('reads, lists and searches inside, also through a symlink that stays inside', async () => {
    const read = await session.callTool('read_text_file', { path: 'link-inside' });
    assert.deepEqual(read.structuredContent, { content: INSIDE });
    const absolute = await session.callTool('read_text_file', { path: path.join(root, 'sub', 'inner.txt') });
    assert.deepEqual(absolute.structuredContent, { content: 'inner\n' });
    const dotted = await session.callTool('read_text_file', { path: 'sub/../inside.txt' });
    assert.deepEqual(dotted.structuredContent, { content: INSIDE });
    const media = await session.callTool('read_media_file', { path: 'inside.txt' });
    assert.notEqual(media.isError, true);
    const info = await session.callTool('get_file_info', { path: 'sub' });
    assert.equal(info.structuredContent?.isDirectory, true);
    const list = await session.callTool('list_directory', { path: 'sub' });
    assert.equal(textOf(list), '[FILE] inner.txt');
    const search = await session.callTool('search_files', { path: '.', pattern: 'inner.txt' });
    assert.deepEqual(search.structuredContent, { matches: [path.join(root, 'sub', 'inner.txt')] });
  });
});

describe('controls: the write tools work inside the root', () => {
  // These change the root on purpose; each puts everything back so the snapshot check still holds.
  it('writes, edits, creates and moves inside, then undoes it', async () => {
    const wrote = await session.callTool('write_file', { path: 'sub/new.txt', content: 'new' });
    assert.notEqual(wrote.isError, true, textOf(wrote));
    assert.equal(await readFile(path.join(root, 'sub', 'new.txt'), 'utf8'), 'new');
    const edited = await session.callTool('edit_file', {
      path: 'sub/new.txt',
      edits: [{ oldText: 'new', newText: 'newer' }],
    });
    assert.notEqual(edited.isError, true, textOf(edited));
    assert.equal(await readFile(path.join(root, 'sub', 'new.txt'), 'utf8'), 'newer');
    const created = await session.callTool('create_directory', { path: 'made/deeper' });
    assert.notEqual(created.isError, true, textOf(created));
    assert.ok((await lstat(path.join(root, 'made', 'deeper'))).isDirectory());
    const moved = await session.callTool('move_file', { source: 'sub/new.txt', destination: 'made/new.txt' });
    assert.notEqual(moved.isError, true, textOf(moved));
    assert.equal(await readFile(path.join(root, 'made', 'new.txt'), 'utf8'), 'newer');
    await removeDir(path.join(root, 'made'));
  });
});
