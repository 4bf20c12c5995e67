// The seed's own JSON-RPC messages, byte for byte, written to `mcpwire serve fs` over stdio: its
// initialize (protocolVersion "0.1.0", clientInfo claude-desktop 0.7.0, no capabilities), tools/list,
// tools/call list_directory {"path": "./docs"}, resources/read of a file:// URI, a notification, and a
// line that is not JSON. Run as `node bin/mcpwire.js`, as `npx mcpwire`, and with Content-Length framing.
// Needs the build (`npm run build`): bin/mcpwire.js runs dist/.

import assert from 'node:assert/strict';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  BIN,
  makeTempDir,
  PACKAGE_VERSION,
  REPO_ROOT,
  removeDir,
  specErrors,
} from '../support/fs-harness.js';
import { type Framing, WireProcess } from '../support/fs-process.js';

// The seed's messages, laid out as the seed lays them out (its quotes restored), one per line.
const SEED_INITIALIZE =
  '{ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": { "protocolVersion": "0.1.0", "clientInfo": { "name": "claude-desktop", "version": "0.7.0" } } }';
const SEED_TOOLS_LIST = '{ "jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {} }';
const SEED_TOOLS_CALL =
  '{ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "list_directory", "arguments": { "path": "./docs" } } }';
const SEED_READ =
  '{ "jsonrpc": "2.0", "id": 123, "method": "resources/read", "params": { "uri": "file:///C:/test.txt" } }';
const SEED_NOTIFICATION =
  '{ "jsonrpc": "2.0", "method": "logging/message", "params": { "level": "info", "message": "开始扫描本地文件夹" } }';
/** What the seed warns about: a stray print on the wire. */
const GARBAGE = 'print(xxx)';

const TEXT = '文件里的文本内容...\n';

let root: string;
let npmCache: string;

before(async () => {
  root = await makeTempDir('mcpwire-fs-seed-');
  npmCache = await makeTempDir('mcpwire-fs-seed-npm-');
  await mkdir(path.join(root, 'docs', 'guides'), { recursive: true });
  await writeFile(path.join(root, 'docs', 'readme.md'), '# docs\n');
  await writeFile(path.join(root, 'test.txt'), TEXT);
});

after(async () => {
  if (root) await removeDir(root);
  if (npmCache) await removeDir(npmCache);
});

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** Plays the seed's exchange and checks every answer, the silence after notifications, and the exit. */
async function seedExchange(server: WireProcess): Promise<void> {
  try {
    const sentIds: Array<string | number | null> = [];
    const request = (json: string) => {
      sentIds.push((JSON.parse(json) as { id: number }).id);
      server.send(json);
    };

    request(SEED_INITIALIZE);
    const initialize = await server.response(0);
    assert.equal(initialize.error, undefined, JSON.stringify(initialize));
    const init = initialize.result!;
    assert.equal(init.protocolVersion, '2025-11-25');
    assert.deepEqual(init.serverInfo, {
      name: 'mcpwire-fs',
      title: 'mcpwire filesystem',
      version: PACKAGE_VERSION,
    });
    const capabilities = init.capabilities as Record<string, unknown>;
    assert.ok(capabilities.tools && capabilities.resources, JSON.stringify(capabilities));
    assert.equal(specErrors('2025-11-25', 'InitializeResult', init), undefined);
    server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');

    request(SEED_TOOLS_LIST);
    const list = (await server.response(2)).result!;
    assert.equal(specErrors('2025-11-25', 'ListToolsResult', list), undefined);
    const names = (list.tools as Array<{ name: string }>).map((t) => t.name);
    assert.ok(names.includes('list_directory'), names.join(', '));
    assert.ok(!names.includes('write_file'), 'write tools are offered only with --write');

    request(SEED_TOOLS_CALL);
    const call = await server.response(3);
    assert.equal(specErrors('2025-11-25', 'CallToolResult', call.result), undefined);
    assert.deepEqual(call.result, {
      content: [{ type: 'text', text: '[DIR] guides\n[FILE] readme.md' }],
      structuredContent: {
        entries: [
          { name: 'guides', type: 'directory' },
          { name: 'readme.md', type: 'file' },
        ],
      },
    });
    // The scan is logged (the seed's "开始扫描本地文件夹") as a notification before the result.
    const log = server.messages.findIndex((m) => m.method === 'notifications/message');
    assert.ok(log !== -1 && log < server.messages.indexOf(call), 'no log of the scan before the result');

    // The seed's own URI names C:/test.txt, outside the root here: refused with a JSON-RPC error.
    request(SEED_READ);
    const outside = await server.response(123);
    assert.equal(outside.result, undefined);
    assert.equal(outside.error?.code, -32602);
    assert.match(String(outside.error?.message), /Allowed directories: /);

    const fileUri = pathToFileURL(path.join(root, 'test.txt')).href;
    request(`{ "jsonrpc": "2.0", "id": 124, "method": "resources/read", "params": { "uri": "${fileUri}" } }`);
    const read = (await server.response(124)).result!;
    assert.equal(specErrors('2025-11-25', 'ReadResourceResult', read), undefined);
    assert.deepEqual(read, { contents: [{ uri: fileUri, mimeType: 'text/plain', text: TEXT }] });

    const missingUri = pathToFileURL(path.join(root, 'missing.txt')).href;
    request(
      `{ "jsonrpc": "2.0", "id": 125, "method": "resources/read", "params": { "uri": "${missingUri}" } }`,
    );
    const missing = await server.response(125);
    assert.equal(missing.error?.code, -32002);
    assert.deepEqual(missing.error?.data, { uri: missingUri });

    // A notification is never answered: the ping after it is the next response.
    server.send(SEED_NOTIFICATION);
    const before = server.messages.length;
    request('{"jsonrpc":"2.0","id":4,"method":"ping"}');
    const ping = await server.response(4);
    assert.deepEqual(ping.result, {});
    assert.deepEqual(server.messages.slice(before), [ping]);

    // A line that is not JSON: -32700 with id null, and the server goes on.
    server.send(GARBAGE);
    const parseError = await server.response(null);
    assert.equal(parseError.error?.code, -32700);
    request('{"jsonrpc":"2.0","id":5,"method":"ping"}');
    assert.deepEqual((await server.response(5)).result, {});

    // End of stdin: the server exits 0.
    const exit = await server.finish();
    assert.deepEqual(exit, { code: 0, signal: null }, `stderr: ${server.stderr}`);

    // stdout carried nothing but well-formed frames of JSON-RPC messages.
    assert.deepEqual(server.violations, []);
    const responses = server.messages.filter((m) => m.method === undefined);
    assert.deepEqual(
      responses.map((m) => m.id).sort(),
      [...sentIds, null].sort(),
      'every request answered exactly once, nothing else answered',
    );
    const notifications = server.messages.filter((m) => m.method !== undefined);
    assert.deepEqual([...new Set(notifications.map((m) => m.method))], ['notifications/message']);
    for (const message of server.messages) assert.equal(message.jsonrpc, '2.0');
  } finally {
    server.kill();
  }
}

function spawnNode(args: string[], cwd: string, framing: Framing): WireProcess {
  return new WireProcess(process.execPath, [BIN, ...args], { cwd, framing });
}

describe('the seed exchange with mcpwire serve fs', () => {
  it('node bin/mcpwire.js serve fs --root DIR (newline-delimited JSON)', async () => {
    await seedExchange(spawnNode(['serve', 'fs', '--root', root], REPO_ROOT, 'newline'));
  });

  it('npx mcpwire serve fs --root DIR (newline-delimited JSON)', async () => {
    const built = (await stat(path.join(REPO_ROOT, 'dist', 'cli', 'bin.js'))).mtimeMs;
    await seedExchange(
      new WireProcess(npx, ['--no-install', 'mcpwire', 'serve', 'fs', '--root', root], {
        cwd: REPO_ROOT,
        framing: 'newline',
        // An npm cache of its own: npx keeps a folder per package spec in the cache, and one left half
        // written by another npx (killed, or running at the same moment) made this one fail with ENOENT.
        // No scripts: npx installs this project into that cache as a packed copy, and packing a folder
        // runs its prepare script, `npm run build`, which deleted and rewrote dist/ under the running
        // suite. On a loaded machine the build outlasted this test's wait, and the tests after it found
        // no build at all. The copy is made of the build the suite runs against.
        env: {
          ...process.env,
          npm_config_update_notifier: 'false',
          npm_config_cache: npmCache,
          npm_config_ignore_scripts: 'true',
        },
      }),
    );
    assert.equal(
      (await stat(path.join(REPO_ROOT, 'dist', 'cli', 'bin.js'))).mtimeMs,
      built,
      'npx rebuilt the repository under the running tests',
    );
  });

  it('Content-Length framing in, Content-Length framing out (root: the working directory)', async () => {
    await seedExchange(spawnNode(['serve', 'fs'], root, 'content-length'));
  });

  it('answers every request of one write that holds several lines', async () => {
    const server = spawnNode(['serve', 'fs', '--root', root], REPO_ROOT, 'newline');
    try {
      // Every seed request at once, as a pipe may deliver them.
      server.writeRaw(`${[SEED_INITIALIZE, SEED_TOOLS_LIST, SEED_TOOLS_CALL].join('\n')}\n`);
      for (const id of [0, 2, 3]) {
        const response = await server.response(id);
        assert.equal(response.error, undefined, JSON.stringify(response));
      }
      assert.deepEqual(await server.finish(), { code: 0, signal: null });
      assert.deepEqual(server.violations, []);
    } finally {
      server.kill();
    }
  });

  it('--max-message-size: a file too large for one message is refused naming the option', async () => {
    await writeFile(path.join(root, 'big.txt'), 'x'.repeat(100 * 1024));
    const server = spawnNode(
      ['serve', 'fs', '--root', root, '--max-message-size', '64KiB'],
      REPO_ROOT,
      'newline',
    );
    try {
      server.send(SEED_INITIALIZE);
      assert.equal((await server.response(0)).error, undefined);
      const bigUri = pathToFileURL(path.join(root, 'big.txt')).href;
      server.send(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: bigUri } }),
      );
      const refused = await server.response(1);
      assert.equal(refused.error?.code, -32603);
      assert.match(String(refused.error?.message), /maximum message size of 65536 bytes.*--max-message-size/);
      assert.deepEqual(refused.error?.data, { uri: bigUri, size: 100 * 1024, maxMessageSize: 65536 });
      server.send(SEED_TOOLS_CALL.replace('"id": 3', '"id": 2'));
      assert.equal((await server.response(2)).error, undefined);
      assert.deepEqual(await server.finish(), { code: 0, signal: null });
      assert.deepEqual(server.violations, []);
    } finally {
      server.kill();
    }
  });

  it('refuses a --root that does not exist, with exit code 2 and nothing on stdout', async () => {
    const server = spawnNode(['serve', 'fs', '--root', path.join(root, 'no-such-dir')], REPO_ROOT, 'newline');
    try {
      const exit = await server.finish();
      assert.deepEqual(exit, { code: 2, signal: null });
      assert.match(server.stderr, /root ".*no-such-dir" does not exist/);
      assert.deepEqual(server.messages, []);
      assert.deepEqual(server.violations, []);
    } finally {
      server.kill();
    }
  });
});
