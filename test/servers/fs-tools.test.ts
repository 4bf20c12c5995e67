// The filesystem server's tools and resources, driven in-process over an in-memory transport by a raw
// JSON-RPC client: each tool's behaviour, its structuredContent checked against the outputSchema it
// declares, the write tools (present only with write), resources (listing page by page over a large
// tree, templates, text and blob reads, the message-size limit, subscriptions) and the client's roots
// replacing the configured ones.

import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { listingReads } from '../../src/servers/fs/resources.js';
import {
  FsSession,
  makeTempDir,
  outputSchemaErrors,
  removeDir,
  type ToolResult,
  textOf,
} from '../support/fs-harness.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A valid 8 kHz mono 8-bit WAV file with four samples. */
function wav(): Buffer {
  const samples = Buffer.from([0x80, 0x90, 0x70, 0x80]);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

const WAV = wav();
const BINARY = Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0xc3]);
const LINES = 'line1\nline2\nline3\nline4\nline5\n';

async function files(root: string, tree: Record<string, string | Buffer>): Promise<void> {
  for (const [relative, content] of Object.entries(tree)) {
    const full = path.join(root, relative);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}

let base: string;

before(async () => {
  base = await makeTempDir('mcpwire-fs-tools-');
});

after(async () => {
  if (base) await removeDir(base);
});

let counter = 0;
/** A fresh directory below base holding `tree`. */
async function fixture(tree: Record<string, string | Buffer>): Promise<string> {
  const root = path.join(base, `root-${counter++}`);
  await mkdir(root);
  await files(root, tree);
  return root;
}

/** Checks a result against its tool's outputSchema from tools/list; returns the structuredContent. */
async function structured(
  session: FsSession,
  name: string,
  result: ToolResult,
): Promise<Record<string, unknown>> {
  assert.notEqual(result.isError, true, `${name} failed: ${textOf(result)}`);
  const { tools } = await session.request<{
    tools: Array<{ name: string; outputSchema?: Record<string, unknown> }>;
  }>('tools/list');
  const schema = tools.find((t) => t.name === name)?.outputSchema;
  assert.ok(schema, `${name} declares no outputSchema`);
  assert.ok(result.structuredContent, `${name} returned no structuredContent`);
  assert.equal(outputSchemaErrors(schema, result.structuredContent), undefined);
  // Clients of older revisions read content only: the text block is there as well.
  assert.ok(result.content.length > 0);
  return result.structuredContent;
}

const READ_TOOLS = [
  'directory_tree',
  'get_file_info',
  'list_allowed_directories',
  'list_directory',
  'read_media_file',
  'read_multiple_files',
  'read_text_file',
  'search_files',
];
const WRITE_TOOLS = ['create_directory', 'edit_file', 'move_file', 'write_file'];

describe('read-only tools', () => {
  let root: string;
  let session: FsSession;

  before(async () => {
    root = await fixture({
      'lines.txt': LINES,
      'no-newline.txt': 'one\ntwo\nthree',
      'image.png': PNG,
      'sound.wav': WAV,
      'data.bin': BINARY,
      'listing/a.txt': 'a',
      'listing/sub/inner.txt': 'inner',
      'multi/one.txt': 'first file',
      'multi/two.txt': 'second file',
      'tree/README.md': '# readme',
      'tree/node_modules/pkg/index.js': 'module.exports = 1;',
      'tree/logs/run.log': 'log',
      'tree/src/app.ts': 'app',
      'tree/src/app.log': 'log',
      'tree/src/lib/util.ts': 'util',
      'tree/src/lib/util.test.ts': 'test',
      'tree/.hidden/secret.ts': 'hidden',
    });
    await mkdir(path.join(root, 'empty'));
    session = await FsSession.start({ roots: [root] });
  });

  after(() => session?.close());

  it('lists exactly the read tools without write, each with an object inputSchema', async () => {
    const { tools } = await session.request<{
      tools: Array<{ name: string; inputSchema: { type: string }; annotations?: { readOnlyHint?: boolean } }>;
    }>('tools/list');
    assert.deepEqual(tools.map((t) => t.name).sort(), READ_TOOLS);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
    }
  });

  it('refuses to call a write tool that was not registered, and writes nothing', async () => {
    const error = await session.requestError('tools/call', {
      name: 'write_file',
      arguments: { path: 'created.txt', content: 'x' },
    });
    assert.equal(error.code, -32602);
    assert.match(error.message, /Unknown tool: write_file/);
    await assert.rejects(stat(path.join(root, 'created.txt')), { code: 'ENOENT' });
  });

  it('read_text_file reads a whole file', async () => {
    const result = await session.callTool('read_text_file', { path: 'lines.txt' });
    assert.deepEqual(await structured(session, 'read_text_file', result), { content: LINES });
    assert.equal(textOf(result), LINES);
  });

  it('read_text_file reads the first and last N lines', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ path: 'lines.txt', head: 2 }, 'line1\nline2'],
      [{ path: 'lines.txt', tail: 2 }, 'line4\nline5'],
      [{ path: 'lines.txt', head: 0 }, ''],
      [{ path: 'lines.txt', tail: 0 }, ''],
      [{ path: 'lines.txt', head: 99 }, LINES],
      [{ path: 'lines.txt', tail: 99 }, 'line1\nline2\nline3\nline4\nline5'],
      [{ path: 'no-newline.txt', tail: 1 }, 'three'],
      [{ path: 'no-newline.txt', head: 1 }, 'one'],
    ];
    for (const [args, expected] of cases) {
      const result = await session.callTool('read_text_file', args);
      assert.deepEqual(
        await structured(session, 'read_text_file', result),
        { content: expected },
        JSON.stringify(args),
      );
    }
  });

  it('read_text_file refuses head with tail, a directory and a missing file', async () => {
    const both = await session.callTool('read_text_file', { path: 'lines.txt', head: 1, tail: 1 });
    assert.equal(both.isError, true);
    assert.match(textOf(both), /"head" or "tail", not both/);
    const directory = await session.callTool('read_text_file', { path: 'listing' });
    assert.equal(directory.isError, true);
    assert.match(textOf(directory), /listing is a directory/);
    const missing = await session.callTool('read_text_file', { path: 'nope.txt' });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /No such file or directory: nope\.txt/);
  });

  it('read_text_file refuses arguments its inputSchema does not allow', async () => {
    const result = await session.callTool('read_text_file', { path: 'lines.txt', head: -1 });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /Invalid arguments for tool "read_text_file"/);
  });

  it('read_media_file returns a PNG as image content', async () => {
    const result = await session.callTool('read_media_file', { path: 'image.png' });
    assert.notEqual(result.isError, true, textOf(result));
    assert.deepEqual(result.content, [
      { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
    ]);
    assert.equal(result.structuredContent, undefined);
  });

  it('read_media_file returns a WAV as audio content', async () => {
    const result = await session.callTool('read_media_file', { path: 'sound.wav' });
    assert.notEqual(result.isError, true, textOf(result));
    assert.deepEqual(result.content, [
      { type: 'audio', data: WAV.toString('base64'), mimeType: 'audio/wav' },
    ]);
  });

  it('read_media_file returns other binary files as an embedded blob resource', async () => {
    const result = await session.callTool('read_media_file', { path: 'data.bin' });
    assert.deepEqual(result.content, [
      {
        type: 'resource',
        resource: {
          uri: pathToFileURL(path.join(root, 'data.bin')).href,
          mimeType: 'application/octet-stream',
          blob: BINARY.toString('base64'),
        },
      },
    ]);
  });

  it('read_multiple_files reads every file and reports the one that fails without failing the rest', async () => {
    const result = await session.callTool('read_multiple_files', {
      paths: ['multi/one.txt', 'multi/missing.txt', 'multi/two.txt'],
    });
    const value = await structured(session, 'read_multiple_files', result);
    assert.deepEqual(value, {
      files: [
        { path: 'multi/one.txt', content: 'first file' },
        { path: 'multi/missing.txt', error: 'No such file or directory: multi/missing.txt' },
        { path: 'multi/two.txt', content: 'second file' },
      ],
    });
    const text = textOf(result);
    assert.ok(text.includes('multi/one.txt:\nfirst file'));
    assert.ok(text.includes('multi/missing.txt: Error - No such file or directory'));
    assert.ok(text.includes('multi/two.txt:\nsecond file'));
  });

  it('list_directory marks files [FILE] and directories [DIR]', async () => {
    const result = await session.callTool('list_directory', { path: 'listing' });
    assert.equal(textOf(result), '[FILE] a.txt\n[DIR] sub');
    assert.deepEqual(await structured(session, 'list_directory', result), {
      entries: [
        { name: 'a.txt', type: 'file' },
        { name: 'sub', type: 'directory' },
      ],
    });
    const empty = await session.callTool('list_directory', { path: 'empty' });
    assert.equal(textOf(empty), '(empty directory)');
    assert.deepEqual(await structured(session, 'list_directory', empty), { entries: [] });
  });

  it('directory_tree gives the whole tree, leaving out excludePatterns', async () => {
    const result = await session.callTool('directory_tree', {
      path: 'tree',
      excludePatterns: ['node_modules', '**/*.log', '.hidden'],
    });
    const expected = [
      { name: 'README.md', type: 'file' },
      { name: 'logs', type: 'directory', children: [] },
      {
        name: 'src',
        type: 'directory',
        children: [
          { name: 'app.ts', type: 'file' },
          {
            name: 'lib',
            type: 'directory',
            children: [
              { name: 'util.test.ts', type: 'file' },
              { name: 'util.ts', type: 'file' },
            ],
          },
        ],
      },
    ];
    assert.deepEqual(await structured(session, 'directory_tree', result), { tree: expected });
    assert.deepEqual(JSON.parse(textOf(result)), expected);
    const all = await session.callTool('directory_tree', { path: 'tree' });
    const names = ((await structured(session, 'directory_tree', all)).tree as Array<{ name: string }>).map(
      (e) => e.name,
    );
    assert.deepEqual(names, ['.hidden', 'README.md', 'logs', 'node_modules', 'src']);
  });

  it('search_files matches a glob at any depth and leaves out excludePatterns', async () => {
    const tree = path.join(root, 'tree');
    const everyTs = await session.callTool('search_files', { path: 'tree', pattern: '*.ts' });
    assert.deepEqual(await structured(session, 'search_files', everyTs), {
      matches: [
        path.join(tree, '.hidden', 'secret.ts'),
        path.join(tree, 'src', 'app.ts'),
        path.join(tree, 'src', 'lib', 'util.test.ts'),
        path.join(tree, 'src', 'lib', 'util.ts'),
      ],
    });
    const excluded = await session.callTool('search_files', {
      path: 'tree',
      pattern: '**/*.ts',
      excludePatterns: ['.hidden', '*.test.ts'],
    });
    assert.deepEqual(await structured(session, 'search_files', excluded), {
      matches: [path.join(tree, 'src', 'app.ts'), path.join(tree, 'src', 'lib', 'util.ts')],
    });
    const js = await session.callTool('search_files', {
      path: 'tree',
      pattern: '*.js',
      excludePatterns: ['node_modules'],
    });
    assert.deepEqual(await structured(session, 'search_files', js), { matches: [] });
    assert.equal(textOf(js), 'No matches found');
  });

  it('get_file_info describes a file and a directory', async () => {
    await chmod(path.join(root, 'lines.txt'), 0o640);
    const info = await stat(path.join(root, 'lines.txt'));
    const result = await session.callTool('get_file_info', { path: 'lines.txt' });
    const value = await structured(session, 'get_file_info', result);
    assert.equal(value.size, Buffer.byteLength(LINES));
    assert.equal(value.isFile, true);
    assert.equal(value.isDirectory, false);
    assert.equal(value.permissions, '640');
    assert.equal(value.modified, info.mtime.toISOString());
    for (const key of ['created', 'modified', 'accessed']) {
      assert.ok(!Number.isNaN(Date.parse(String(value[key]))), `${key} is not a date: ${value[key]}`);
    }
    assert.ok(textOf(result).includes(`size: ${Buffer.byteLength(LINES)}`));
    const directory = await structured(
      session,
      'get_file_info',
      await session.callTool('get_file_info', { path: 'listing' }),
    );
    assert.equal(directory.isDirectory, true);
    assert.equal(directory.isFile, false);
  });

  it('list_allowed_directories names the root', async () => {
    const result = await session.callTool('list_allowed_directories');
    assert.deepEqual(await structured(session, 'list_allowed_directories', result), { directories: [root] });
    assert.equal(textOf(result), `Allowed directories:\n${root}`);
  });

  it('several roots: all allowed, relative paths start at the first', async () => {
    const first = await fixture({ 'which.txt': 'first' });
    const second = await fixture({ 'which.txt': 'second', 'only-second.txt': 'only' });
    const two = await FsSession.start({ roots: [first, second] });
    try {
      const dirs = await two.callTool('list_allowed_directories');
      assert.deepEqual(dirs.structuredContent, { directories: [first, second] });
      assert.deepEqual((await two.callTool('read_text_file', { path: 'which.txt' })).structuredContent, {
        content: 'first',
      });
      const other = await two.callTool('read_text_file', { path: path.join(second, 'only-second.txt') });
      assert.deepEqual(other.structuredContent, { content: 'only' });
    } finally {
      await two.close();
    }
  });
});

describe('write tools', () => {
  let root: string;
  let session: FsSession;

  before(async () => {
    root = await fixture({
      'edit.txt': 'alpha\nbeta\ngamma\n',
      'twice.txt': 'same\nsame\n',
      'move-me.txt': 'moving',
      'taken.txt': 'already here',
    });
    session = await FsSession.start({ roots: [root], write: true });
  });

  after(() => session?.close());

  it('are listed with write, beside the read tools', async () => {
    const { tools } = await session.request<{ tools: Array<{ name: string }> }>('tools/list');
    assert.deepEqual(tools.map((t) => t.name).sort(), [...READ_TOOLS, ...WRITE_TOOLS].sort());
  });

  it('write_file creates a file and replaces one', async () => {
    const created = await session.callTool('write_file', { path: 'new.txt', content: 'héllo ✓' });
    assert.deepEqual(await structured(session, 'write_file', created), {
      path: path.join(root, 'new.txt'),
      bytes: Buffer.byteLength('héllo ✓'),
    });
    assert.equal(await readFile(path.join(root, 'new.txt'), 'utf8'), 'héllo ✓');
    const replaced = await session.callTool('write_file', { path: 'new.txt', content: 'replaced' });
    assert.equal((await structured(session, 'write_file', replaced)).bytes, 8);
    assert.equal(await readFile(path.join(root, 'new.txt'), 'utf8'), 'replaced');
  });

  it('write_file refuses a file whose parent does not exist', async () => {
    const result = await session.callTool('write_file', { path: 'no/such/dir/f.txt', content: 'x' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /No such file or directory/);
    await assert.rejects(stat(path.join(root, 'no')), { code: 'ENOENT' });
  });

  it('edit_file with dryRun returns the diff and leaves the file unchanged', async () => {
    const result = await session.callTool('edit_file', {
      path: 'edit.txt',
      edits: [{ oldText: 'beta', newText: 'BETA' }],
      dryRun: true,
    });
    const value = await structured(session, 'edit_file', result);
    assert.equal(value.applied, false);
    const diff = String(value.diff);
    assert.ok(diff.includes('--- edit.txt'), diff);
    assert.ok(diff.includes('+++ edit.txt'), diff);
    assert.ok(diff.includes('\n-beta\n'), diff);
    assert.ok(diff.includes('\n+BETA\n'), diff);
    assert.equal(textOf(result), diff);
    assert.equal(await readFile(path.join(root, 'edit.txt'), 'utf8'), 'alpha\nbeta\ngamma\n');
  });

  it('edit_file applies several edits in order', async () => {
    const result = await session.callTool('edit_file', {
      path: 'edit.txt',
      edits: [
        { oldText: 'alpha', newText: 'ALPHA' },
        { oldText: 'ALPHA\nbeta', newText: 'ALPHA\nBETA' },
      ],
    });
    const value = await structured(session, 'edit_file', result);
    assert.equal(value.applied, true);
    assert.ok(String(value.diff).includes('\n+BETA\n'));
    assert.equal(await readFile(path.join(root, 'edit.txt'), 'utf8'), 'ALPHA\nBETA\ngamma\n');
  });

  it('edit_file refuses an oldText that occurs more than once, or not at all, and changes nothing', async () => {
    const twice = await session.callTool('edit_file', {
      path: 'twice.txt',
      edits: [{ oldText: 'same', newText: 'other' }],
    });
    assert.equal(twice.isError, true);
    assert.match(textOf(twice), /edit 1: oldText occurs more than once in twice\.txt/);
    const partly = await session.callTool('edit_file', {
      path: 'edit.txt',
      edits: [
        { oldText: 'gamma', newText: 'GAMMA' },
        { oldText: 'not there', newText: 'x' },
      ],
    });
    assert.equal(partly.isError, true);
    assert.match(textOf(partly), /edit 2: oldText was not found in edit\.txt/);
    assert.equal(await readFile(path.join(root, 'twice.txt'), 'utf8'), 'same\nsame\n');
    assert.equal(await readFile(path.join(root, 'edit.txt'), 'utf8'), 'ALPHA\nBETA\ngamma\n');
  });

  it('create_directory creates nested directories and succeeds when they exist', async () => {
    const result = await session.callTool('create_directory', { path: 'made/deeper/deepest' });
    assert.deepEqual(await structured(session, 'create_directory', result), {
      path: path.join(root, 'made', 'deeper', 'deepest'),
    });
    assert.ok((await stat(path.join(root, 'made', 'deeper', 'deepest'))).isDirectory());
    const again = await session.callTool('create_directory', { path: 'made/deeper' });
    assert.deepEqual(await structured(session, 'create_directory', again), {
      path: path.join(root, 'made', 'deeper'),
    });
    const absolute = await session.callTool('create_directory', { path: path.join(root, 'abs', 'one') });
    assert.notEqual(absolute.isError, true, textOf(absolute));
    assert.ok((await stat(path.join(root, 'abs', 'one'))).isDirectory());
  });

  it('move_file moves a file, and refuses a destination that exists', async () => {
    const refused = await session.callTool('move_file', { source: 'move-me.txt', destination: 'taken.txt' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /the destination taken\.txt already exists/);
    assert.equal(await readFile(path.join(root, 'move-me.txt'), 'utf8'), 'moving');
    assert.equal(await readFile(path.join(root, 'taken.txt'), 'utf8'), 'already here');

    await mkdir(path.join(root, 'target'));
    const moved = await session.callTool('move_file', {
      source: 'move-me.txt',
      destination: 'target/moved.txt',
    });
    assert.deepEqual(await structured(session, 'move_file', moved), {
      source: path.join(root, 'move-me.txt'),
      destination: path.join(root, 'target', 'moved.txt'),
    });
    assert.equal(await readFile(path.join(root, 'target', 'moved.txt'), 'utf8'), 'moving');
    await assert.rejects(stat(path.join(root, 'move-me.txt')), { code: 'ENOENT' });
  });
});

interface ResourcesPage {
  resources: Array<{ uri: string; name: string; mimeType?: string }>;
  nextCursor?: string;
}

interface ReadResult {
  contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }>;
}

/** Compares relative paths segment by segment, as a sorted directory walk visits them. */
function walkOrder(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

async function listAll(session: FsSession): Promise<{ pages: ResourcesPage[]; uris: string[] }> {
  const pages: ResourcesPage[] = [];
  let cursor: string | undefined;
  do {
    const page = await session.request<ResourcesPage>(
      'resources/list',
      cursor === undefined ? {} : { cursor },
    );
    pages.push(page);
    cursor = page.nextCursor;
    assert.ok(pages.length < 50, 'resources/list never ends');
  } while (cursor !== undefined);
  return { pages, uris: pages.flatMap((p) => p.resources.map((r) => r.uri)) };
}

describe('resources', () => {
  it('resources/list pages through a tree of more than 250 files, each exactly once, in a stable order', async () => {
    const tree: Record<string, string> = {};
    // Names chosen so that "a.txt", "a-b/..." and "a/..." sort differently as strings and as a walk.
    for (let d = 0; d < 12; d++) {
      for (let f = 0; f < 20; f++)
        tree[`d${String(d).padStart(2, '0')}/f${String(f).padStart(3, '0')}.txt`] = 'x';
    }
    for (let f = 0; f < 15; f++) tree[`top-${f}.md`] = 'x';
    tree['a.txt'] = 'x';
    tree['a-b/inner.txt'] = 'x';
    tree['a/inner.txt'] = 'x';
    tree['a/deep/er/est.json'] = '{}';
    const root = await fixture(tree);
    const expected = Object.keys(tree).sort(walkOrder);
    assert.ok(expected.length > 250);
    const session = await FsSession.start({ roots: [root] });
    try {
      const first = await listAll(session);
      assert.ok(first.pages.length >= 3, `only ${first.pages.length} pages`);
      for (const page of first.pages.slice(0, -1)) assert.ok(page.resources.length > 0);
      assert.equal(new Set(first.uris).size, first.uris.length, 'a file was listed twice');
      assert.deepEqual(
        first.uris,
        expected.map((relative) => pathToFileURL(path.join(root, relative)).href),
      );
      const names = first.pages.flatMap((p) => p.resources.map((r) => r.name));
      assert.deepEqual(names, expected);
      const md = first.pages.flatMap((p) => p.resources).find((r) => r.name === 'top-0.md');
      assert.equal(md?.mimeType, 'text/markdown');
      const second = await listAll(session);
      assert.deepEqual(second.uris, first.uris);
    } finally {
      await session.close();
    }
  });

  it('bug: resources/list read and sorted a whole directory again for every page; pages reuse it until it changes', async () => {
    const tree: Record<string, string> = {};
    for (let f = 0; f < 450; f++) tree[`f${String(f).padStart(4, '0')}.txt`] = 'x';
    const root = await fixture(tree);
    const session = await FsSession.start({ roots: [root] });
    try {
      const before = listingReads.count;
      const first = await listAll(session);
      assert.ok(first.pages.length >= 4, `only ${first.pages.length} pages`);
      assert.equal(first.uris.length, 450);
      assert.equal(listingReads.count - before, 1, 'the directory was read once for all its pages');
      // A file added between listings is seen: the directory changed, so it is read again.
      await writeFile(path.join(root, 'f0100a.txt'), 'new');
      const second = await listAll(session);
      assert.equal(second.uris.length, 451);
      assert.ok(second.uris.includes(pathToFileURL(path.join(root, 'f0100a.txt')).href));
    } finally {
      await session.close();
    }
  });

  it('resources/list refuses a cursor it did not issue', async () => {
    const root = await fixture({ 'a.txt': 'a' });
    const session = await FsSession.start({ roots: [root] });
    try {
      const error = await session.requestError('resources/list', { cursor: 'not-a-cursor' });
      assert.equal(error.code, -32602);
    } finally {
      await session.close();
    }
  });

  describe('reads', () => {
    let root: string;
    let session: FsSession;
    const uri = (relative: string) => pathToFileURL(path.join(root, relative)).href;

    before(async () => {
      root = await fixture({
        'notes.txt': 'plain text\n',
        'doc.md': '# title\n',
        'image.png': PNG,
        'data.bin': BINARY,
        'utf8.unknownext': 'valid utf-8 ✓',
        'with space.txt': 'space',
        'hash#1.txt': 'hash',
        'ünïcode.txt': 'unicode',
        'dir/inner.txt': 'inner',
      });
      session = await FsSession.start({ roots: [root] });
    });

    after(() => session?.close());

    it('declares resources with subscribe in initialize', () => {
      const capabilities = session.initializeResult.capabilities as Record<string, unknown>;
      assert.deepEqual(capabilities.resources, { subscribe: true, listChanged: true });
    });

    it('resources/templates/list offers file:///{+path}', async () => {
      const result = await session.request<{ resourceTemplates: Array<Record<string, unknown>> }>(
        'resources/templates/list',
      );
      assert.equal(result.resourceTemplates.length, 1);
      assert.equal(result.resourceTemplates[0]?.uriTemplate, 'file:///{+path}');
      assert.equal(result.resourceTemplates[0]?.name, 'file');
    });

    it('reads text files as text with their MIME type', async () => {
      for (const [relative, mimeType, text] of [
        ['notes.txt', 'text/plain', 'plain text\n'],
        ['doc.md', 'text/markdown', '# title\n'],
        ['utf8.unknownext', 'text/plain', 'valid utf-8 ✓'],
      ] as const) {
        const result = await session.request<ReadResult>('resources/read', { uri: uri(relative) });
        assert.deepEqual(result, { contents: [{ uri: uri(relative), mimeType, text }] });
      }
    });

    it('reads binary files as a base64 blob', async () => {
      const png = await session.request<ReadResult>('resources/read', { uri: uri('image.png') });
      assert.deepEqual(png, {
        contents: [{ uri: uri('image.png'), mimeType: 'image/png', blob: PNG.toString('base64') }],
      });
      const bin = await session.request<ReadResult>('resources/read', { uri: uri('data.bin') });
      assert.deepEqual(bin, {
        contents: [
          { uri: uri('data.bin'), mimeType: 'application/octet-stream', blob: BINARY.toString('base64') },
        ],
      });
    });

    it('reads back every URI that resources/list gives, special characters included', async () => {
      const { uris } = await listAll(session);
      assert.equal(uris.length, 9);
      for (const listed of uris) {
        const result = await session.request<ReadResult>('resources/read', { uri: listed });
        assert.equal(result.contents[0]?.uri, listed);
      }
      const space = await session.request<ReadResult>('resources/read', { uri: uri('with space.txt') });
      assert.equal(space.contents[0]?.text, 'space');
      assert.ok(uris.includes(uri('hash#1.txt')));
    });

    it('answers a missing file with -32002 carrying the URI, and a directory with -32602', async () => {
      const missing = await session.requestError('resources/read', { uri: uri('missing.txt') });
      assert.equal(missing.code, -32002);
      assert.deepEqual(missing.data, { uri: uri('missing.txt') });
      const directory = await session.requestError('resources/read', { uri: uri('dir') });
      assert.equal(directory.code, -32602);
      assert.match(directory.message, /is a directory/);
    });
  });

  it('bug: edit_file had no size check; a file or a diff too large to answer is refused and nothing changes', async () => {
    const limit = 64 * 1024;
    // 12 KiB of quotes: each is escaped as \\" in JSON, so the diff's answer is over the limit although
    // the file is well under it; the 40 KiB file is too large to edit at all (its diff could not be sent).
    const quotes = `${'"'.repeat(12 * 1024)}\n`;
    const root = await fixture({ 'quotes.txt': quotes, 'big.txt': 'x'.repeat(40 * 1024), 'ok.txt': 'one\n' });
    const session = await FsSession.start({ roots: [root], maxMessageSize: limit, write: true });
    try {
      const big = await session.callTool('edit_file', {
        path: 'big.txt',
        edits: [{ oldText: 'x', newText: 'y' }],
      });
      assert.equal(big.isError, true);
      assert.match(textOf(big), /too large for the maximum message size/);
      const escaped = await session.callTool('edit_file', {
        path: 'quotes.txt',
        edits: [{ oldText: '"\n', newText: "'\n" }],
      });
      assert.equal(escaped.isError, true);
      assert.match(textOf(escaped), /over the maximum message size of 65536 bytes; nothing was changed/);
      assert.equal(await readFile(path.join(root, 'quotes.txt'), 'utf8'), quotes);
      const fine = await session.callTool('edit_file', {
        path: 'ok.txt',
        edits: [{ oldText: 'one', newText: 'two' }],
      });
      assert.equal(fine.isError, undefined);
      assert.equal(await readFile(path.join(root, 'ok.txt'), 'utf8'), 'two\n');
    } finally {
      await session.close();
    }
  });

  it('refuses a file larger than the maximum message size, naming --max-message-size', async () => {
    const limit = 64 * 1024;
    const root = await fixture({ 'big.txt': 'x'.repeat(100 * 1024), 'small.txt': 'y'.repeat(16 * 1024) });
    const session = await FsSession.start({ roots: [root], maxMessageSize: limit });
    const bigUri = pathToFileURL(path.join(root, 'big.txt')).href;
    try {
      const error = await session.requestError('resources/read', { uri: bigUri });
      assert.equal(error.code, -32603);
      assert.match(error.message, /too large for the maximum message size of 65536 bytes/);
      assert.match(error.message, /--max-message-size \d+MiB/);
      assert.deepEqual(error.data, { uri: bigUri, size: 100 * 1024, maxMessageSize: limit });
      const tool = await session.callTool('read_text_file', { path: 'big.txt' });
      assert.equal(tool.isError, true);
      assert.match(textOf(tool), /--max-message-size/);
      const media = await session.callTool('read_media_file', { path: 'big.txt' });
      assert.equal(media.isError, true);
      assert.match(textOf(media), /--max-message-size/);
      const small = await session.request<ReadResult>('resources/read', {
        uri: pathToFileURL(path.join(root, 'small.txt')).href,
      });
      assert.equal(small.contents[0]?.text?.length, 16 * 1024);
    } finally {
      await session.close();
    }
  });

  it('sends notifications/resources/updated for a subscribed file that changes', async () => {
    const root = await fixture({ 'watched.txt': 'before' });
    const session = await FsSession.start({ roots: [root] });
    const watched = pathToFileURL(path.join(root, 'watched.txt')).href;
    try {
      assert.deepEqual(await session.request('resources/subscribe', { uri: watched }), {});
      await writeFile(path.join(root, 'watched.txt'), 'after');
      const notice = await session.waitForNotice(
        (n) => n.method === 'notifications/resources/updated',
        10_000,
        'notifications/resources/updated',
      );
      assert.deepEqual(notice.params, { uri: watched });
      const reread = await session.request<ReadResult>('resources/read', { uri: watched });
      assert.equal(reread.contents[0]?.text, 'after');
      assert.deepEqual(await session.request('resources/unsubscribe', { uri: watched }), {});
    } finally {
      await session.close();
    }
  });

  it('watches only files really inside the root: a symlink pointing out is not reported', async () => {
    const outside = await fixture({ 'target.txt': 'outside' });
    const root = await fixture({ 'control.txt': 'control' });
    await symlink(path.join(outside, 'target.txt'), path.join(root, 'link.txt'));
    const session = await FsSession.start({ roots: [root] });
    const link = pathToFileURL(path.join(root, 'link.txt')).href;
    const control = pathToFileURL(path.join(root, 'control.txt')).href;
    try {
      await session.request('resources/subscribe', { uri: link });
      await session.request('resources/subscribe', { uri: control });
      // The outside file changes first: had it been watched, its notification would come first too.
      await writeFile(path.join(outside, 'target.txt'), 'changed outside');
      await writeFile(path.join(root, 'control.txt'), 'changed inside');
      await session.waitForNotice(
        (n) => (n.params as { uri?: string }).uri === control,
        10_000,
        'notifications/resources/updated for the control file',
      );
      const updated = session.notices.filter((n) => n.method === 'notifications/resources/updated');
      assert.deepEqual(
        updated.map((n) => n.params),
        [{ uri: control }],
      );
    } finally {
      await session.close();
    }
  });
});

describe('client roots', () => {
  it('replace the configured directory, and are asked again after roots/list_changed', async () => {
    const configured = await fixture({ 'configured.txt': 'configured' });
    const clientDir = await fixture({ 'which.txt': 'client one', 'one.txt': 'one' });
    const otherDir = await fixture({ 'which.txt': 'client two' });
    let answer = clientDir;
    let asked = 0;
    const session = await FsSession.start({
      roots: [configured],
      clientCapabilities: { roots: { listChanged: true } },
      listRoots: () => {
        asked++;
        return { roots: [{ uri: pathToFileURL(answer).href, name: 'client' }] };
      },
    });
    try {
      const dirs = await session.callTool('list_allowed_directories');
      assert.deepEqual(dirs.structuredContent, { directories: [clientDir] });
      const which = await session.callTool('read_text_file', { path: 'which.txt' });
      assert.deepEqual(which.structuredContent, { content: 'client one' });
      const refused = await session.callTool('read_text_file', {
        path: path.join(configured, 'configured.txt'),
      });
      assert.equal(refused.isError, true);
      assert.ok(textOf(refused).endsWith(`Allowed directories: ${clientDir}`), textOf(refused));
      const { uris } = await listAll(session);
      assert.deepEqual(uris, [
        pathToFileURL(path.join(clientDir, 'one.txt')).href,
        pathToFileURL(path.join(clientDir, 'which.txt')).href,
      ]);
      assert.equal(asked, 1, 'the roots are asked once and kept for the session');

      answer = otherDir;
      session.client.notify('notifications/roots/list_changed');
      const after = await session.callTool('list_allowed_directories');
      assert.deepEqual(after.structuredContent, { directories: [otherDir] });
      const whichNow = await session.callTool('read_text_file', { path: 'which.txt' });
      assert.deepEqual(whichNow.structuredContent, { content: 'client two' });
      const oldOne = await session.callTool('read_text_file', { path: path.join(clientDir, 'one.txt') });
      assert.equal(oldOne.isError, true);
      assert.equal(asked, 2);
    } finally {
      await session.close();
    }
  });

  it("reports changes of a subscribed file under the client's roots", async () => {
    const configured = await fixture({ 'configured.txt': 'configured' });
    const clientDir = await fixture({ 'watched.txt': 'before' });
    const session = await FsSession.start({
      roots: [configured],
      clientCapabilities: { roots: {} },
      listRoots: () => ({ roots: [{ uri: pathToFileURL(clientDir).href }] }),
    });
    const watched = pathToFileURL(path.join(clientDir, 'watched.txt')).href;
    try {
      const read = await session.request<ReadResult>('resources/read', { uri: watched });
      assert.equal(read.contents[0]?.text, 'before');
      await session.request('resources/subscribe', { uri: watched });
      await writeFile(path.join(clientDir, 'watched.txt'), 'after');
      const notice = await session.waitForNotice(
        (n) => n.method === 'notifications/resources/updated',
        10_000,
        'notifications/resources/updated',
      );
      assert.deepEqual(notice.params, { uri: watched });
    } finally {
      await session.close();
    }
  });

  it('a client without the roots capability is never asked', async () => {
    const configured = await fixture({ 'x.txt': 'x' });
    let asked = 0;
    const session = await FsSession.start({
      roots: [configured],
      listRoots: () => {
        asked++;
        return { roots: [] };
      },
    });
    try {
      const dirs = await session.callTool('list_allowed_directories');
      assert.deepEqual(dirs.structuredContent, { directories: [configured] });
      assert.equal(asked, 0);
    } finally {
      await session.close();
    }
  });

  it('roots the server cannot use (no file:// URI, missing directory) keep the configured ones', async () => {
    const configured = await fixture({ 'x.txt': 'x' });
    const session = await FsSession.start({
      roots: [configured],
      clientCapabilities: { roots: {} },
      listRoots: () => ({
        roots: [
          { uri: 'https://example.com/' },
          { uri: pathToFileURL(path.join(base, 'does-not-exist')).href },
        ],
      }),
    });
    try {
      const dirs = await session.callTool('list_allowed_directories');
      assert.deepEqual(dirs.structuredContent, { directories: [configured] });
    } finally {
      await session.close();
    }
  });
});
