// The official TypeScript SDK's Client as a real peer of `mcpwire serve sqlite --write` over stdio: it
// initializes, lists and calls every tool (the SDK checks structuredContent against each outputSchema
// itself), reads the schema and a table resource, gets the prompt, follows progress, and cancels a long
// query with its own AbortSignal. Every message our server sends is checked against the official
// 2025-11-25 schema. Needs the build (`npm run build`): bin/mcpwire.js runs dist/.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PACKAGE_VERSION } from '../support/fs-harness.js';
import { connectRecordedSdkClient } from '../support/sdk-stdio-client.js';
import { BIG, buildFixture, makeTempDir, query, removeDir, specErrors } from '../support/sqlite-harness.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'mcpwire.js');
const REVISION = '2025-11-25';

const RESULT_DEFINITIONS: Record<string, string> = {
  initialize: 'InitializeResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
  ping: 'EmptyResult',
};

type Content = Array<{ type: string; text?: string }>;

let directory: string;
let file: string;
let client: Client;
let sent: JSONRPCMessage[];
let received: JSONRPCMessage[];

before(async () => {
  directory = await makeTempDir('mcpwire-sqlite-sdk-');
  file = path.join(directory, 'fixture.db');
  buildFixture(file);
  ({ client, sent, received } = await connectRecordedSdkClient({
    command: process.execPath,
    args: [BIN, 'serve', 'sqlite', file, '--write'],
    cwd: ROOT,
  }));
});

after(async () => {
  await client?.close();
  if (directory) await removeDir(directory);
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
  return result as { content: Content; structuredContent?: Record<string, unknown> };
}

describe('the official SDK client with mcpwire serve sqlite --write', () => {
  it('initializes and learns the server, its capabilities and instructions', () => {
    assert.deepEqual(client.getServerVersion(), {
      name: 'mcpwire-sqlite',
      title: 'mcpwire SQLite',
      version: PACKAGE_VERSION,
    });
    const capabilities = client.getServerCapabilities();
    assert.ok(
      capabilities?.tools && capabilities.resources && capabilities.prompts && capabilities.completions,
    );
    assert.match(client.getInstructions() ?? '', /readable and writable.*sqlite:\/\/schema/);
  });

  it('lists and calls every tool', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'create_table',
      'describe_table',
      'list_tables',
      'read_query',
      'write_query',
    ]);
    const tables = await call('list_tables');
    assert.equal((tables.structuredContent!.tables as unknown[]).length, 5);

    const users = await call('describe_table', { table: 'users' });
    assert.deepEqual(
      (users.structuredContent!.columns as Array<{ name: string }>).map((c) => c.name),
      ['id', 'name', 'email', 'team_id', 'score', 'avatar', 'big'],
    );

    const read = await call('read_query', {
      sql: 'SELECT id, big FROM users WHERE big IS NOT NULL ORDER BY id',
    });
    assert.deepEqual(read.structuredContent?.rows, [
      { id: 1, big: BIG },
      { id: 2, big: 42 },
    ]);

    const created = await call('create_table', { sql: 'CREATE TABLE tags (user_id INTEGER, tag TEXT)' });
    assert.deepEqual(created.structuredContent, { created: true, table: 'tags' });

    const written = await call('write_query', {
      sql: 'INSERT INTO tags VALUES (:user, :tag)',
      params: { user: 1, tag: 'admin' },
    });
    assert.equal(written.structuredContent?.changes, 1);
    assert.deepEqual(query(file, 'SELECT * FROM tags'), [{ user_id: 1, tag: 'admin' }]);
  });

  it('gets refusals as isError results', async () => {
    const result = await client.callTool({ name: 'read_query', arguments: { sql: 'DROP TABLE users' } });
    assert.equal(result.isError, true);
    assert.match(String((result.content as Content)[0]?.text), /read_query runs only SELECT/);
  });

  it('lists and reads the resources, and completes table names', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(
      resources.map((r) => r.uri),
      [
        'sqlite://schema',
        'sqlite://table/odd%20%22name%22%20%2F%20x',
        'sqlite://table/orders',
        'sqlite://table/tags',
        'sqlite://table/teams',
        'sqlite://table/users',
      ],
    );
    const schema = await client.readResource({ uri: 'sqlite://schema' });
    assert.match(String((schema.contents[0] as { text: string }).text), /CREATE TABLE tags/);
    const teams = await client.readResource({ uri: 'sqlite://table/teams' });
    assert.match(
      String((teams.contents[0] as { text: string }).text),
      /first rows:\nid \| name\n.*\n1 {2}\| red\n2 {2}\| blue/,
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.equal(resourceTemplates[0]?.uriTemplate, 'sqlite://table/{name}');
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'sqlite://table/{name}' },
      argument: { name: 'name', value: 'ta' },
    });
    assert.deepEqual(completion.completion.values, ['tags']);
  });

  it('gets the prompt', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['explore_database'],
    );
    const prompt = await client.getPrompt({ name: 'explore_database', arguments: { topic: 'tags' } });
    assert.match(
      String((prompt.messages[0]!.content as { text: string }).text),
      /- tags \(table\): user_id, tag/,
    );
  });

  it('follows progress, and cancels a long query with its AbortSignal', async () => {
    const updates: number[] = [];
    const many = await client.callTool(
      {
        name: 'read_query',
        arguments: {
          sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000) SELECT x FROM c',
          maxRows: 2000,
        },
      },
      undefined,
      { onprogress: (progress) => updates.push(progress.progress) },
    );
    assert.equal((many.structuredContent as { rowCount: number }).rowCount, 2000);
    // Every batch (of at most 500 rows) went out before the response. The SDK hands notifications to
    // its handlers a tick later than responses, so it may drop those read together with the response.
    const progress = received.filter((m) => 'method' in m && m.method === 'notifications/progress');
    const values = progress.map((m) => (m as unknown as { params: { progress: number } }).params.progress);
    assert.ok(values.length >= 4 && values.at(-1) === 2000, `${values}`);
    assert.ok(updates.length >= 1 && updates.every((u, i) => i === 0 || u > updates[i - 1]!), `${updates}`);

    const controller = new AbortController();
    const long = client.callTool(
      {
        name: 'read_query',
        arguments: {
          sql: `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000),
                big(y) AS (SELECT 1 UNION ALL SELECT y + 1 FROM big WHERE y < 1e9)
                SELECT x, CASE WHEN x = 600 THEN (SELECT count(*) FROM big) END AS slow FROM c`,
          maxRows: 1000,
        },
      },
      undefined,
      {
        signal: controller.signal,
        // The first progress means the statement is running; it then blocks inside SQLite.
        onprogress: () => controller.abort('enough'),
      },
    );
    await assert.rejects(long);
    const id = (sent.findLast((m) => 'method' in m && m.method === 'tools/call') as { id: number }).id;
    assert.ok(sent.some((m) => 'method' in m && m.method === 'notifications/cancelled'));
    // The server is free again at once, and never answers the cancelled request.
    const after = await call('read_query', { sql: 'SELECT count(*) AS n FROM users' });
    assert.deepEqual(after.structuredContent?.rows, [{ n: 3 }]);
    assert.deepEqual(await client.ping(), {});
    assert.equal(
      received.some((m) => 'id' in m && m.id === id && ('result' in m || 'error' in m)),
      false,
    );
  });

  it('sent only messages valid under the official schema', () => {
    const methods = new Map<unknown, string>();
    for (const message of sent)
      if ('method' in message && 'id' in message) methods.set(message.id, message.method);
    let checked = 0;
    for (const message of received) {
      assert.equal(specErrors(REVISION, 'JSONRPCMessage', message), undefined, JSON.stringify(message));
      if ('result' in message) {
        const definition = RESULT_DEFINITIONS[methods.get(message.id) ?? ''];
        assert.ok(definition, `a result of ${methods.get(message.id)}`);
        assert.equal(specErrors(REVISION, definition, message.result), undefined, JSON.stringify(message));
        checked++;
      }
    }
    assert.ok(checked >= 15, `checked ${checked} results`);
  });
});
