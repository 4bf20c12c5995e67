// Structured tool output: outputSchema is listed and structuredContent validated against it (2025-06-18
// on), with the JSON as text too; older revisions get neither field, only the text.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { type ByteSource, StreamedString } from '../../src/jsonrpc/streamed.js';
import { McpServer } from '../../src/server/server.js';
import type { ToolOutput } from '../../src/server/tools.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

type CallResult = {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const OUTPUT = {
  type: 'object',
  properties: { celsius: { type: 'number' }, sky: { type: 'string', enum: ['clear', 'cloudy'] } },
  required: ['celsius', 'sky'],
};

function server(output: ToolOutput): McpServer {
  const s = new McpServer({ name: 'structured', version: '1.0.0' });
  s.tool({ name: 'weather', outputSchema: OUTPUT }, () => output);
  return s;
}

const STRUCTURED = { celsius: 21.5, sky: 'clear' };

describe('structured tool output', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    const structured = revision >= '2025-06-18';
    it(`[tools.structured-revision, tools.structured-text, messages.revision-fields] ${structured ? 'sends' : 'leaves out'} outputSchema and structuredContent in ${revision}, with the JSON as text`, async () => {
      const wire = await Wire.open(server({ structuredContent: STRUCTURED }), revision);
      const { tools } = await wire.result<{ tools: Array<Record<string, unknown>> }>('tools/list');
      assert.deepEqual(tools[0]?.outputSchema, structured ? OUTPUT : undefined);
      const result = await wire.result<CallResult>('tools/call', { name: 'weather' });
      const expected: CallResult = { content: [{ type: 'text', text: JSON.stringify(STRUCTURED) }] };
      if (structured) expected.structuredContent = STRUCTURED;
      assert.deepEqual(result, expected);
      await wire.close();
    });
  }

  it('[tools.structured-text] keeps content the handler gave next to structuredContent', async () => {
    const content = [{ type: 'text' as const, text: 'Clear, 21.5 °C' }];
    const wire = await Wire.open(server({ content, structuredContent: STRUCTURED }), '2025-11-25');
    const result = await wire.result<CallResult>('tools/call', { name: 'weather' });
    assert.deepEqual(result, { content, structuredContent: STRUCTURED });
    await wire.close();
  });

  it('[tools.output-schema] turns structuredContent that breaks the outputSchema into an isError result', async () => {
    const wire = await Wire.open(
      server({ structuredContent: { celsius: 'warm', sky: 'foggy' } }),
      '2025-11-25',
    );
    const result = await wire.result<CallResult>('tools/call', { name: 'weather' });
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent, undefined);
    const text = result.content[0]!.text;
    assert.match(text, /tool "weather" returned structuredContent that does not match its outputSchema/);
    assert.match(text, /celsius: must be number/);
    assert.match(text, /sky: must be equal to one of the allowed values/);
    await wire.close();
  });

  it('[tools.output-schema] turns a missing structuredContent into an isError result', async () => {
    const wire = await Wire.open(server({ content: [{ type: 'text', text: 'warm' }] }), '2025-06-18');
    const result = await wire.result<CallResult>('tools/call', { name: 'weather' });
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /declares an outputSchema but returned no structuredContent/);
    await wire.close();
  });

  it('[tools.output-schema, tools.execution-error] does not hold an error result to the outputSchema', async () => {
    const failure = {
      content: [{ type: 'text' as const, text: 'the weather service is down' }],
      isError: true,
    };
    const wire = await Wire.open(server(failure), '2025-11-25');
    assert.deepEqual(await wire.result('tools/call', { name: 'weather' }), failure);
    await wire.close();
  });

  it('[tools.output-schema] lists and checks a zod output schema', async () => {
    const s = new McpServer({ name: 'structured', version: '1.0.0' });
    const output = z.object({ total: z.number() });
    let answer: Record<string, unknown> = { total: 3 };
    s.tool({ name: 'sum', outputSchema: output }, () => ({ structuredContent: answer }));
    const wire = await Wire.open(s, '2025-11-25');
    const { tools } = await wire.result<{ tools: Array<Record<string, unknown>> }>('tools/list');
    assert.deepEqual(
      tools[0]?.outputSchema,
      z.toJSONSchema(output, { target: 'draft-2020-12', io: 'output' }),
    );
    assert.deepEqual((await wire.result<CallResult>('tools/call', { name: 'sum' })).structuredContent, {
      total: 3,
    });
    answer = { total: 'three' };
    const wrong = await wire.result<CallResult>('tools/call', { name: 'sum' });
    assert.equal(wrong.isError, true);
    assert.match(wrong.content[0]!.text, /total: .*number/);
    await wire.close();
  });
});

/** A source of one chunk that records its closing under `name` (every source is closed once). */
function source(text: string, closed: string[], name: string): ByteSource {
  let sent = false;
  return {
    async read() {
      if (sent) return null;
      sent = true;
      return Buffer.from(text);
    },
    close() {
      closed.push(name);
    },
  };
}

const STREAMED_OUTPUT = {
  type: 'object',
  properties: { text: { type: 'string' }, lines: { type: 'number' } },
  required: ['text', 'lines'],
};

describe('streamed tool output (a StreamedString in content and structuredContent)', () => {
  const TEXT = 'a "big" file\n\tünïcödé ✓ 😀\n';
  function streamedServer(output: (closed: string[]) => ToolOutput, closed: string[]): McpServer {
    const s = new McpServer({ name: 'streamed', version: '1.0.0' });
    s.tool({ name: 'read', outputSchema: STREAMED_OUTPUT }, () => output(closed));
    return s;
  }
  const stream = (closed: string[], name: string) =>
    new StreamedString(source(TEXT, closed, name), 'text', Buffer.byteLength(TEXT));

  for (const revision of HANDSHAKE_REVISIONS) {
    const structured = revision >= '2025-06-18';
    it(`[tools.output-schema] checks a streamed value's type against the outputSchema and answers its text (${revision})`, async () => {
      const closed: string[] = [];
      const s = streamedServer(
        (c) => ({
          content: [{ type: 'text', text: stream(c, 'content') }],
          structuredContent: { text: stream(c, 'structured'), lines: 2 },
        }),
        closed,
      );
      const wire = await Wire.open(s, revision);
      const result = await wire.result<CallResult>('tools/call', { name: 'read' });
      const expected: CallResult = { content: [{ type: 'text', text: TEXT }] };
      if (structured) expected.structuredContent = { text: TEXT, lines: 2 };
      assert.deepEqual(result, expected);
      // A revision without structuredContent never writes it: its source is closed, not left to GC.
      assert.deepEqual(closed.sort(), ['content', 'structured']);
      await wire.close();
    });
  }

  it('[tools.output-schema] refuses streamed structuredContent that breaks the outputSchema elsewhere, closing every source', async () => {
    const closed: string[] = [];
    const s = streamedServer(
      (c) => ({
        content: [{ type: 'text', text: stream(c, 'content') }],
        structuredContent: { text: stream(c, 'structured'), lines: 'two' },
      }),
      closed,
    );
    const wire = await Wire.open(s, '2025-11-25');
    const result = await wire.result<CallResult>('tools/call', { name: 'read' });
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /lines: must be number/);
    assert.doesNotMatch(result.content[0]!.text, /text: must be string/);
    assert.deepEqual(closed.sort(), ['content', 'structured']);
    await wire.close();
  });

  it("[tools.output-schema] does not hold a streamed value's text to the string keywords of its schema (it is not read before it is written)", async () => {
    const closed: string[] = [];
    const s = new McpServer({ name: 'streamed', version: '1.0.0' });
    s.tool(
      {
        name: 'read',
        outputSchema: {
          type: 'object',
          properties: {
            text: { type: 'string', minLength: 1, pattern: '^a', format: 'uri' },
            lines: { type: 'number', minimum: 1 },
          },
          required: ['text', 'lines'],
        },
      },
      () => ({
        content: [{ type: 'text', text: stream(closed, 'content') }],
        structuredContent: { text: stream(closed, 'structured'), lines: 2 },
      }),
    );
    const wire = await Wire.open(s, '2025-11-25');
    const result = await wire.result<CallResult>('tools/call', { name: 'read' });
    assert.deepEqual(result, {
      content: [{ type: 'text', text: TEXT }],
      structuredContent: { text: TEXT, lines: 2 },
    });
    await wire.close();
  });

  it('refuses one streamed value given in two places (it can be written once), closing its source', async () => {
    const closed: string[] = [];
    const s = streamedServer((c) => {
      const once = stream(c, 'both');
      return { content: [{ type: 'text', text: once }], structuredContent: { text: once, lines: 2 } };
    }, closed);
    const wire = await Wire.open(s, '2025-11-25');
    const result = await wire.result<CallResult>('tools/call', { name: 'read' });
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /one streamed value in two places/);
    assert.deepEqual(closed, ['both']);
    await wire.close();
  });

  it('refuses a streamed structuredContent with no content, saying what to give, and closes its source', async () => {
    const closed: string[] = [];
    const s = streamedServer(
      (c) => ({ structuredContent: { text: stream(c, 'structured'), lines: 2 } }),
      closed,
    );
    const wire = await Wire.open(s, '2025-11-25');
    const result = await wire.result<CallResult>('tools/call', { name: 'read' });
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /streamed value in structuredContent and no content/);
    assert.deepEqual(closed, ['structured']);
    await wire.close();
  });
});
