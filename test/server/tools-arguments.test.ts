// Invalid tool arguments: a tool result with isError and a message that says what is wrong in 2025-11-25,
// a -32602 error in earlier revisions; the handler never runs. Unknown tools and malformed calls are
// protocol errors in every revision.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

type CallResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

const SCHEMAS = {
  zod: z.object({ city: z.string(), days: z.number().int().max(14) }),
  'raw JSON Schema': {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', maximum: 14 } },
    required: ['city', 'days'],
    additionalProperties: false,
  },
} as const;

function server(kind: keyof typeof SCHEMAS): { server: McpServer; calls: unknown[] } {
  const calls: unknown[] = [];
  const s = new McpServer({ name: 'args', version: '1.0.0' });
  s.tool({ name: 'forecast', inputSchema: SCHEMAS[kind] }, (args) => {
    calls.push(args);
    return { content: [{ type: 'text', text: 'sunny' }] };
  });
  return { server: s, calls };
}

const BAD = { city: 42, days: 30 };

describe('tool arguments', () => {
  for (const kind of Object.keys(SCHEMAS) as Array<keyof typeof SCHEMAS>) {
    it(`[tools.input-error-result] answers invalid arguments with an isError result naming each problem (2025-11-25, ${kind})`, async () => {
      const { server: s, calls } = server(kind);
      const wire = await Wire.open(s, '2025-11-25');
      const result = await wire.result<CallResult>('tools/call', { name: 'forecast', arguments: BAD });
      assert.equal(result.isError, true);
      assert.equal(result.content.length, 1);
      const text = result.content[0]!.text;
      assert.match(text, /^Invalid arguments for tool "forecast": /);
      assert.match(text, /city: .*string/);
      assert.match(text, /days: .*(14|less than or equal)/);
      assert.deepEqual(calls, []);
      await wire.close();
    });

    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18']) {
      it(`[tools.input-error-protocol, messages.error-shape] answers invalid arguments with -32602 in ${revision} (${kind})`, async () => {
        const { server: s, calls } = server(kind);
        const wire = await Wire.open(s, revision);
        const error = await wire.error('tools/call', { name: 'forecast', arguments: BAD });
        assert.equal(error.code, -32602);
        assert.match(error.message, /^Invalid arguments for tool "forecast": .*city/);
        const data = error.data as { tool: string; issues: string[] };
        assert.equal(data.tool, 'forecast');
        assert.equal(data.issues.length, 2);
        assert.deepEqual(calls, []);
        await wire.close();
      });
    }
  }

  it('[tools.input-error-result] says which argument is missing and which is unexpected', async () => {
    const { server: s } = server('raw JSON Schema');
    const wire = await Wire.open(s, '2025-11-25');
    const missing = await wire.result<CallResult>('tools/call', {
      name: 'forecast',
      arguments: { city: 'Oslo' },
    });
    assert.match(missing.content[0]!.text, /must have required property 'days'/);
    const extra = await wire.result<CallResult>('tools/call', {
      name: 'forecast',
      arguments: { city: 'Oslo', days: 2, units: 'metric' },
    });
    assert.match(extra.content[0]!.text, /unexpected property "units"/);
    await wire.close();
  });

  it('[tools.input-error-result] treats missing arguments as an empty object', async () => {
    const { server: s } = server('zod');
    const wire = await Wire.open(s, '2025-11-25');
    const result = await wire.result<CallResult>('tools/call', { name: 'forecast' });
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /city/);
    await wire.close();
  });

  for (const revision of ['2024-11-05', '2025-11-25']) {
    it(`[tools.unknown-tool] answers an unknown tool with -32602 naming it and the tools there are (${revision})`, async () => {
      const { server: s } = server('zod');
      const wire = await Wire.open(s, revision);
      const error = await wire.error('tools/call', { name: 'forcast', arguments: {} });
      assert.equal(error.code, -32602);
      assert.equal(error.message, 'Unknown tool: forcast');
      assert.deepEqual(error.data, { name: 'forcast', available: ['forecast'] });
      await wire.close();
    });

    it(`[tools.unknown-tool, messages.error-shape] answers a malformed call (no name, arguments not an object) with -32602 (${revision})`, async () => {
      const { server: s, calls } = server('zod');
      const wire = await Wire.open(s, revision);
      for (const params of [
        {},
        { name: 7 },
        { name: 'forecast', arguments: ['Oslo'] },
        { name: 'forecast', arguments: 'Oslo' },
      ]) {
        const error = await wire.error('tools/call', params);
        assert.equal(error.code, -32602, JSON.stringify(params));
        assert.match(error.message, /"(name|arguments)"/);
      }
      assert.deepEqual(calls, []);
      await wire.close();
    });
  }

  it('[tools.input-error-result] runs the handler with valid arguments', async () => {
    const { server: s, calls } = server('zod');
    const wire = await Wire.open(s, '2025-11-25');
    const result = await wire.result<CallResult>('tools/call', {
      name: 'forecast',
      arguments: { city: 'Oslo', days: 3 },
    });
    assert.deepEqual(result, { content: [{ type: 'text', text: 'sunny' }] });
    assert.deepEqual(calls, [{ city: 'Oslo', days: 3 }]);
    await wire.close();
  });
});
