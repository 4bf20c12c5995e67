// The official TypeScript SDK's Client as a real peer of `mcpwire serve fs --write` over stdio: it
// initializes, lists and calls every tool (the SDK checks structuredContent against each outputSchema
// itself), lists and reads resources and resource templates, subscribes, and pings. Every message our
// server sends is recorded and checked against the official 2025-11-25 schema: the JSON-RPC envelope,
// and each result against the definition of the method it answers.
// Needs the build (`npm run build`): bin/mcpwire.js runs dist/.

import assert from 'node:assert/strict';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  BIN,
  makeTempDir,
  PACKAGE_VERSION,
  REPO_ROOT,
  removeDir,
  specErrors,
} from '../support/fs-harness.js';
import { RESULT_DEFINITIONS } from '../support/schema-definitions.js';
import { connectRecordedSdkClient } from '../support/sdk-stdio-client.js';

const REVISION = '2025-11-25';

/** The methods this test calls: each answer is checked against its result definition. */
const CALLED_METHODS = [
  'initialize',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'ping',
];

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

type Content = Array<{ type: string; text?: string; data?: string; mimeType?: string }>;

let base: string;
let root: string;
let client: Client;
let sent: JSONRPCMessage[];
let received: JSONRPCMessage[];

before(async () => {
  base = await makeTempDir('mcpwire-fs-sdk-');
  root = path.join(base, 'root');
  await mkdir(path.join(root, 'docs', 'guides'), { recursive: true });
  await mkdir(path.join(base, 'outside'));
  await writeFile(path.join(base, 'outside', 'secret.txt'), 'secret');
  await writeFile(path.join(root, 'notes.txt'), 'one\ntwo\nthree\n');
  await writeFile(path.join(root, 'docs', 'readme.md'), '# docs\n');
  await writeFile(path.join(root, 'docs', 'guides', 'intro.md'), '# intro\n');
  await writeFile(path.join(root, 'docs', 'build.log'), 'log\n');
  await writeFile(path.join(root, 'image.png'), PNG);
  await writeFile(path.join(root, 'edit.txt'), 'hello world\n');

  ({ client, sent, received } = await connectRecordedSdkClient({
    command: process.execPath,
    args: [BIN, 'serve', 'fs', '--root', root, '--write'],
    cwd: REPO_ROOT,
  }));
});

after(async () => {
  await client?.close();
  if (base) await removeDir(base);
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
  return result as { content: Content; structuredContent?: Record<string, unknown>; isError?: boolean };
}

describe('the official SDK client with mcpwire serve fs --write', () => {
  it('initializes at 2025-11-25 and learns the server and its capabilities', () => {
    assert.deepEqual(client.getServerVersion(), {
      name: 'mcpwire-fs',
      title: 'mcpwire filesystem',
      version: PACKAGE_VERSION,
    });
    const capabilities = client.getServerCapabilities();
    assert.ok(capabilities?.tools);
    assert.equal(capabilities?.resources?.subscribe, true);
    assert.match(client.getInstructions() ?? '', /Reads and writes files/);
    const init = received.find((m) => 'result' in m && 'protocolVersion' in m.result);
    assert.ok(init && 'result' in init);
    assert.equal(init.result.protocolVersion, REVISION);
  });

  it('pings', async () => {
    assert.deepEqual(await client.ping(), {});
  });

  it('lists every tool, write tools included', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'create_directory',
      'directory_tree',
      'edit_file',
      'get_file_info',
      'list_allowed_directories',
      'list_directory',
      'move_file',
      'read_media_file',
      'read_multiple_files',
      'read_text_file',
      'search_files',
      'write_file',
    ]);
  });

  it('calls every read tool', async () => {
    // listTools first, so that the SDK knows each outputSchema and checks structuredContent against it.
    await client.listTools();
    const text = await call('read_text_file', { path: 'notes.txt', tail: 2 });
    assert.deepEqual(text.structuredContent, { content: 'two\nthree' });

    const media = await call('read_media_file', { path: 'image.png' });
    assert.deepEqual(media.content, [{ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' }]);

    const multiple = await call('read_multiple_files', { paths: ['notes.txt', 'nope.txt'] });
    const files = multiple.structuredContent?.files as Array<{
      path: string;
      content?: string;
      error?: string;
    }>;
    assert.equal(files[0]?.content, 'one\ntwo\nthree\n');
    assert.match(String(files[1]?.error), /No such file/);

    const list = await call('list_directory', { path: './docs' });
    assert.equal(list.content[0]?.text, '[FILE] build.log\n[DIR] guides\n[FILE] readme.md');

    const tree = await call('directory_tree', { path: 'docs', excludePatterns: ['*.log'] });
    assert.deepEqual(tree.structuredContent, {
      tree: [
        { name: 'guides', type: 'directory', children: [{ name: 'intro.md', type: 'file' }] },
        { name: 'readme.md', type: 'file' },
      ],
    });

    const search = await call('search_files', { path: '.', pattern: '*.md', excludePatterns: ['guides'] });
    assert.deepEqual(search.structuredContent, { matches: [path.join(root, 'docs', 'readme.md')] });

    const info = await call('get_file_info', { path: 'notes.txt' });
    assert.equal(info.structuredContent?.size, 14);
    assert.equal(info.structuredContent?.isFile, true);

    const allowed = await call('list_allowed_directories');
    assert.deepEqual(allowed.structuredContent, { directories: [root] });
  });

  it('gets a refusal as an isError result, not a protocol error', async () => {
    const result = await client.callTool({
      name: 'read_text_file',
      arguments: { path: path.join(base, 'outside', 'secret.txt') },
    });
    assert.equal(result.isError, true);
    assert.match(String((result.content as Content)[0]?.text), /Access denied.*Allowed directories: /);
    assert.ok(!JSON.stringify(result).includes('"secret"'));
  });

  it('calls every write tool', async () => {
    await client.listTools();
    const write = await call('write_file', { path: 'written.txt', content: 'written' });
    assert.deepEqual(write.structuredContent, { path: path.join(root, 'written.txt'), bytes: 7 });
    assert.equal(await readFile(path.join(root, 'written.txt'), 'utf8'), 'written');

    const dry = await call('edit_file', {
      path: 'edit.txt',
      edits: [{ oldText: 'world', newText: 'there' }],
      dryRun: true,
    });
    assert.equal(dry.structuredContent?.applied, false);
    assert.match(String(dry.structuredContent?.diff), /-hello world\n\+hello there/);
    assert.equal(await readFile(path.join(root, 'edit.txt'), 'utf8'), 'hello world\n');
    const edit = await call('edit_file', {
      path: 'edit.txt',
      edits: [{ oldText: 'world', newText: 'there' }],
    });
    assert.equal(edit.structuredContent?.applied, true);
    assert.equal(await readFile(path.join(root, 'edit.txt'), 'utf8'), 'hello there\n');

    const made = await call('create_directory', { path: 'made/nested' });
    assert.deepEqual(made.structuredContent, { path: path.join(root, 'made', 'nested') });
    assert.ok((await stat(path.join(root, 'made', 'nested'))).isDirectory());

    const moved = await call('move_file', { source: 'written.txt', destination: 'made/nested/moved.txt' });
    assert.deepEqual(moved.structuredContent, {
      source: path.join(root, 'written.txt'),
      destination: path.join(root, 'made', 'nested', 'moved.txt'),
    });
    assert.equal(await readFile(path.join(root, 'made', 'nested', 'moved.txt'), 'utf8'), 'written');
  });

  it('lists resources page by page and resource templates', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    assert.ok(uris.includes(pathToFileURL(path.join(root, 'docs', 'guides', 'intro.md')).href), uris.join());
    assert.ok(uris.includes(pathToFileURL(path.join(root, 'image.png')).href));
    assert.equal(new Set(uris).size, uris.length);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ['file:///{+path}'],
    );
  });

  it('reads a text resource and a binary one', async () => {
    const notes = pathToFileURL(path.join(root, 'notes.txt')).href;
    assert.deepEqual((await client.readResource({ uri: notes })).contents, [
      { uri: notes, mimeType: 'text/plain', text: 'one\ntwo\nthree\n' },
    ]);
    const image = pathToFileURL(path.join(root, 'image.png')).href;
    assert.deepEqual((await client.readResource({ uri: image })).contents, [
      { uri: image, mimeType: 'image/png', blob: PNG.toString('base64') },
    ]);
    await assert.rejects(client.readResource({ uri: pathToFileURL(path.join(root, 'missing.txt')).href }), {
      code: -32002,
    });
  });

  it('subscribes to a file and is told when it changes', async () => {
    const uri = pathToFileURL(path.join(root, 'notes.txt')).href;
    const updated = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no notifications/resources/updated in 10 s')), 10_000);
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        clearTimeout(timer);
        resolve(notification.params.uri);
      });
    });
    await client.subscribeResource({ uri });
    await writeFile(path.join(root, 'notes.txt'), 'changed\n');
    assert.equal(await updated, uri);
  });

  it('sent only messages the 2025-11-25 schema accepts, every result matching its method', () => {
    const methods = new Map<string | number, string>();
    for (const message of sent) {
      if ('method' in message && 'id' in message) methods.set(message.id, message.method);
    }
    const checked = new Set<string>();
    assert.ok(received.length > 0);
    for (const message of received) {
      assert.equal(specErrors(REVISION, 'JSONRPCMessage', message), undefined, JSON.stringify(message));
      if ('result' in message) {
        const method = methods.get(message.id);
        assert.ok(method, `a response to an id never sent: ${JSON.stringify(message)}`);
        const definition = RESULT_DEFINITIONS[method];
        assert.ok(definition, `a response to ${method}, which this test does not know`);
        assert.equal(
          specErrors(REVISION, definition, message.result),
          undefined,
          `${method}: ${JSON.stringify(message.result)}`,
        );
        checked.add(definition);
      } else if ('error' in message) {
        assert.equal(specErrors(REVISION, 'JSONRPCErrorResponse', message), undefined);
      } else if ('method' in message && !('id' in message)) {
        assert.equal(specErrors(REVISION, 'ServerNotification', message), undefined, JSON.stringify(message));
      }
    }
    const expected = new Set(CALLED_METHODS.map((method) => RESULT_DEFINITIONS[method]));
    assert.deepEqual([...checked].sort(), [...expected].sort());
  });
});
