// Every JSON Schema keyword a server writes reaches the client unchanged (2020-12 is the default dialect
// from 2025-11-25 on): a tool whose input and output schemas use the 2020-12 vocabulary (anchors and
// dynamic references, $defs and $ref, the applicators, the unevaluated and dependent keywords, the
// content and metadata keywords, vendor keys) is listed by mcpwire's McpServer and read by mcpwire's
// McpClient, in the handshake era and in 2026-07-28, exactly as it was registered; and the call still
// validates against it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { McpServer } from '../../src/server/server.js';
import { createInMemoryPair } from '../../src/transport/memory.js';

const INPUT = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://example.com/schemas/shipment',
  $comment: 'every keyword below must reach the client as written',
  title: 'Shipment',
  description: 'A parcel and where it goes',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'address',
      type: 'object',
      properties: { street: { type: 'string', minLength: 1 }, country: { enum: ['DE', 'FR', 'NL'] } },
      required: ['street'],
    },
    node: { $dynamicAnchor: 'node', type: 'object', properties: { next: { $dynamicRef: '#node' } } },
  },
  properties: {
    to: { $ref: '#address' },
    from: { $ref: '#/$defs/address' },
    weight: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5, examples: [1.5] },
    kind: { const: 'parcel', default: 'parcel', deprecated: false },
    tags: {
      type: 'array',
      prefixItems: [{ type: 'string' }],
      items: { type: 'string' },
      contains: { const: 'fragile' },
      minContains: 0,
      maxContains: 3,
      uniqueItems: true,
      unevaluatedItems: false,
    },
    label: { type: 'string', contentMediaType: 'image/png', contentEncoding: 'base64', writeOnly: true },
    notes: {
      type: 'object',
      propertyNames: { pattern: '^[a-z]+$' },
      patternProperties: { '^x': { type: 'string' } },
      additionalProperties: { type: 'string' },
      minProperties: 0,
    },
    insured: { type: 'boolean' },
    value: { type: 'number' },
    route: { $ref: '#/$defs/node' },
  },
  required: ['to', 'weight'],
  allOf: [{ not: { required: ['forbidden'] } }],
  anyOf: [{ required: ['to'] }, { required: ['from'] }],
  oneOf: [{ required: ['weight'] }, { required: ['forbidden'] }],
  if: { properties: { insured: { const: true } }, required: ['insured'] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a promise.
  then: { required: ['value'] },
  else: { not: { required: ['value'] } },
  dependentRequired: { value: ['insured'] },
  dependentSchemas: { from: { required: ['to'] } },
  unevaluatedProperties: false,
  'x-vendor': { kept: true, nested: [1, 'two', null] },
};

const OUTPUT = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid', readOnly: true },
    eta: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['id'],
  additionalProperties: false,
  'x-vendor': 'output kept too',
};

function shipping(): McpServer {
  const server = new McpServer({ name: 'shipping', version: '1.0.0' });
  server.tool({ name: 'ship', inputSchema: INPUT, outputSchema: OUTPUT }, () => ({
    content: [{ type: 'text', text: 'shipped' }],
    structuredContent: { id: '6f1c8a2e-1b7d-4c1e-9a51-2f0f3b8e4d10', eta: null },
  }));
  return server;
}

async function connect(era: 'handshake' | 'stateless'): Promise<McpClient> {
  const [clientSide, serverSide] = createInMemoryPair();
  shipping().connect(serverSide);
  const client = new McpClient({ name: 'test', version: '1.0.0', era });
  await client.connect(clientSide);
  return client;
}

describe('JSON Schema 2020-12 from server to client', () => {
  for (const era of ['handshake', 'stateless'] as const) {
    it(`lists input and output schemas keyword for keyword (${era})`, async () => {
      const client = await connect(era);
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools[0]?.inputSchema, INPUT);
        assert.deepEqual(tools[0]?.outputSchema, OUTPUT);
      } finally {
        await client.close();
      }
    });
  }

  it('validates a call against the schema as written (if/then, unevaluatedProperties)', async () => {
    const client = await connect('stateless');
    try {
      const ok = await client.callTool('ship', { to: { street: 'Main 1' }, weight: 2 });
      assert.equal(ok.isError, undefined, JSON.stringify(ok.content));
      assert.deepEqual(ok.structuredContent, { id: '6f1c8a2e-1b7d-4c1e-9a51-2f0f3b8e4d10', eta: null });
      const insuredWithoutValue = await client.callTool('ship', {
        to: { street: 'Main 1' },
        weight: 2,
        insured: true,
      });
      assert.equal(insuredWithoutValue.isError, true);
      assert.match(JSON.stringify(insuredWithoutValue.content), /value/);
      const unknown = await client.callTool('ship', { to: { street: 'Main 1' }, weight: 2, extra: 1 });
      assert.equal(unknown.isError, true);
      assert.match(JSON.stringify(unknown.content), /unexpected property \\"extra\\"/);
    } finally {
      await client.close();
    }
  });
});
