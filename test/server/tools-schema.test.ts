// Tool input schemas: a zod v4 schema is listed as its JSON Schema (2020-12); a raw JSON Schema is listed
// exactly as given ($schema, $defs, additionalProperties kept) and validated in its own dialect.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

type Tools = { tools: Array<Record<string, unknown>> };
type CallResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

function echo(args: Record<string, unknown>) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(args) }] };
}

describe('tool input schemas', () => {
  it('[tools.list, tools.input-schema] lists a zod v4 schema as its JSON Schema, 2020-12', async () => {
    const s = new McpServer({ name: 'schemas', version: '1.0.0' });
    const schema = z.object({ name: z.string().describe('Who'), times: z.number().int().min(1).optional() });
    s.tool({ name: 'greet', inputSchema: schema }, echo);
    const wire = await Wire.open(s, '2025-11-25');
    const { tools } = await wire.result<Tools>('tools/list');
    const listed = tools[0]!.inputSchema as Record<string, unknown>;
    assert.deepEqual(listed, z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }));
    assert.equal(listed.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.deepEqual(listed.required, ['name']);
    await wire.close();
  });

  it('[tools.input-schema, tools.list] lists a raw JSON Schema exactly as given', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/schemas/move',
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } } } },
      properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point' } },
      required: ['from', 'to'],
      additionalProperties: false,
      'x-vendor': { kept: true },
    };
    const s = new McpServer({ name: 'schemas', version: '1.0.0' });
    s.tool({ name: 'move', inputSchema: schema }, echo);
    for (const revision of ['2024-11-05', '2025-11-25']) {
      const wire = await Wire.open(s, revision);
      const { tools } = await wire.result<Tools>('tools/list');
      assert.deepEqual(tools[0]?.inputSchema, schema, revision);
      await wire.close();
    }
  });

  it('validates two tools whose schemas share an $id each against its own schema', async () => {
    // One schema object on two tools, and another schema with the same $id: each call is checked against
    // its own tool's schema (the first call of the second one was an internal error).
    const shared = {
      $id: 'https://example.com/schemas/shared',
      type: 'object',
      $defs: { n: { $anchor: 'n', type: 'number' } },
      properties: { x: { $ref: '#n' } },
      required: ['x'],
    };
    const other = { ...shared, properties: { y: { type: 'string' } }, required: ['y'] };
    const s = new McpServer({ name: 'schemas', version: '1.0.0' });
    s.tool({ name: 'a', inputSchema: shared }, echo);
    s.tool({ name: 'b', inputSchema: shared }, echo);
    s.tool({ name: 'c', inputSchema: other }, echo);
    const wire = await Wire.open(s, '2025-11-25');
    for (const name of ['a', 'b']) {
      const ok = await wire.result<CallResult>('tools/call', { name, arguments: { x: 1 } });
      assert.equal(ok.isError, undefined, name);
      const refused = await wire.result<CallResult>('tools/call', { name, arguments: { x: 'one' } });
      assert.equal(refused.isError, true, name);
    }
    const own = await wire.result<CallResult>('tools/call', { name: 'c', arguments: { y: 'one' } });
    assert.equal(own.isError, undefined);
    await wire.close();
  });

  it('names the property that unevaluatedProperties: false refuses', async () => {
    const s = new McpServer({ name: 'schemas', version: '1.0.0' });
    s.tool(
      {
        name: 'strict',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' } },
          allOf: [{ properties: { b: { type: 'number' } } }],
          unevaluatedProperties: false,
        },
      },
      echo,
    );
    const wire = await Wire.open(s, '2025-11-25');
    const ok = await wire.result<CallResult>('tools/call', { name: 'strict', arguments: { a: 1, b: 2 } });
    assert.equal(ok.isError, undefined);
    const refused = await wire.result<CallResult>('tools/call', {
      name: 'strict',
      arguments: { a: 1, c: 3 },
    });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0]!.text, /unexpected property "c"/);
    await wire.close();
  });

  it('[tools.input-schema] lists a tool without an input schema as taking an empty object', async () => {
    const s = new McpServer({ name: 'schemas', version: '1.0.0' });
    s.tool({ name: 'now' }, () => ({ content: [{ type: 'text', text: 'noon' }] }));
    const wire = await Wire.open(s, '2025-11-25');
    const { tools } = await wire.result<Tools>('tools/list');
    assert.deepEqual(tools[0]?.inputSchema, { type: 'object', properties: {}, additionalProperties: false });
    const refused = await wire.result<CallResult>('tools/call', { name: 'now', arguments: { extra: 1 } });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0]!.text, /unexpected property "extra"/);
    await wire.close();
  });

  it('refuses at registration a schema that does not describe an object', () => {
    const s = new McpServer({ name: 'schemas', version: '1.0.0' });
    assert.throws(() => s.tool({ name: 'bad', inputSchema: { type: 'string' } }, echo), /"type": "object"/);
  });

  it('[tools.schema-dialect] validates a schema without $schema as 2020-12 (prefixItems)', async () => {
    const s = new McpServer({ name: 'schemas', version: '1.0.0' });
    s.tool(
      {
        name: 'pair',
        inputSchema: {
          type: 'object',
          properties: {
            pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
          },
        },
      },
      echo,
    );
    const wire = await Wire.open(s, '2025-11-25');
    const ok = await wire.result<CallResult>('tools/call', { name: 'pair', arguments: { pair: ['a', 1] } });
    assert.equal(ok.isError, undefined);
    const wrong = await wire.result<CallResult>('tools/call', {
      name: 'pair',
      arguments: { pair: ['a', 'b'] },
    });
    assert.equal(wrong.isError, true);
    assert.match(wrong.content[0]!.text, /pair\.1: must be number/);
    const long = await wire.result<CallResult>('tools/call', {
      name: 'pair',
      arguments: { pair: ['a', 1, 2] },
    });
    assert.equal(long.isError, true);
    await wire.close();
  });

  it('[tools.schema-dialect] validates a schema that declares draft-07 as draft-07 (tuple items)', async () => {
    const s = new McpServer({ name: 'schemas', version: '1.0.0' });
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      },
      definitions: { unused: { type: 'null' } },
    };
    s.tool({ name: 'pair', inputSchema: schema }, echo);
    const wire = await Wire.open(s, '2025-11-25');
    const { tools } = await wire.result<Tools>('tools/list');
    assert.deepEqual(tools[0]?.inputSchema, schema);
    const ok = await wire.result<CallResult>('tools/call', { name: 'pair', arguments: { pair: ['a', 1] } });
    assert.equal(ok.isError, undefined);
    const wrong = await wire.result<CallResult>('tools/call', {
      name: 'pair',
      arguments: { pair: [1, 'a'] },
    });
    assert.equal(wrong.isError, true);
    assert.match(wrong.content[0]!.text, /pair\.0: must be string/);
    await wire.close();
  });

  it('[tools.input-schema] hands the handler the values the zod schema parsed (defaults applied)', async () => {
    const s = new McpServer({ name: 'schemas', version: '1.0.0' });
    s.tool(
      { name: 'page', inputSchema: z.object({ size: z.number().default(10), q: z.string().trim() }) },
      echo,
    );
    const wire = await Wire.open(s, '2025-11-25');
    const result = await wire.result<CallResult>('tools/call', { name: 'page', arguments: { q: '  cats ' } });
    assert.deepEqual(JSON.parse(result.content[0]!.text), { size: 10, q: 'cats' });
    await wire.close();
  });
});
