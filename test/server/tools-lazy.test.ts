// Validation of raw JSON Schemas is compiled lazily and once: registering and listing a tool never reads
// its schema's keywords for compilation; the first call compiles; later calls reuse the validator.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

/** A JSON Schema that counts how often its `properties` keyword is read. */
function countingSchema(): { schema: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const properties = { n: { type: 'number' } };
  const schema: Record<string, unknown> = { type: 'object', required: ['n'] };
  Object.defineProperty(schema, 'properties', {
    enumerable: true,
    get() {
      reads++;
      return properties;
    },
  });
  return { schema, reads: () => reads };
}

describe('lazy schema compilation', () => {
  it('compiles a tool’s input schema on its first call, and only once', async () => {
    const { schema, reads } = countingSchema();
    const s = new McpServer({ name: 'lazy', version: '1.0.0' });
    s.tool({ name: 'double', inputSchema: schema }, (args) => ({
      content: [{ type: 'text', text: String(Number(args.n) * 2) }],
    }));
    assert.equal(reads(), 0, 'registration read the schema');
    const wire = await Wire.open(s, '2025-11-25');
    await wire.result('tools/list');
    // Listing serialises the schema once (one read), and compiles nothing.
    assert.equal(reads(), 1);
    await wire.result('tools/call', { name: 'double', arguments: { n: 2 } });
    const afterFirstCall = reads();
    assert.ok(afterFirstCall > 1, 'the first call did not compile the schema');
    await wire.result('tools/call', { name: 'double', arguments: { n: 3 } });
    const invalid = await wire.result<{ isError?: boolean }>('tools/call', { name: 'double', arguments: {} });
    assert.equal(invalid.isError, true, 'the compiled validator is used');
    assert.equal(reads(), afterFirstCall, 'a later call compiled the schema again');
    await wire.close();
  });

  it('lists a tool whose schema cannot compile, and fails only its calls', async () => {
    const s = new McpServer({ name: 'lazy', version: '1.0.0' });
    s.tool({ name: 'broken', inputSchema: { type: 'object', properties: { n: { type: 'numbr' } } } }, () => ({
      content: [],
    }));
    s.tool({ name: 'fine' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const wire = await Wire.open(s, '2025-11-25');
    const { tools } = await wire.result<{ tools: Array<{ name: string }> }>('tools/list');
    assert.deepEqual(
      tools.map((t) => t.name),
      ['broken', 'fine'],
    );
    const error = await wire.error('tools/call', { name: 'broken', arguments: { n: 1 } });
    assert.equal(error.code, -32603);
    assert.match(error.message, /numbr|type/);
    assert.deepEqual(await wire.result('tools/call', { name: 'fine' }), {
      content: [{ type: 'text', text: 'ok' }],
    });
    await wire.close();
  });
});
