// A tool's title, annotations, icons and _meta, each listed only in the revisions that define it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

const INPUT = { type: 'object', properties: { path: { type: 'string' } } };
const ANNOTATIONS = {
  title: 'Delete a file',
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
const ICONS = [
  { src: 'https://example.com/trash.svg', mimeType: 'image/svg+xml', sizes: ['any'], theme: 'dark' as const },
];

const EXPECTED: Record<string, Record<string, unknown>> = {
  '2024-11-05': { name: 'delete', description: 'Deletes a file', inputSchema: INPUT },
  '2025-03-26': {
    name: 'delete',
    description: 'Deletes a file',
    inputSchema: INPUT,
    annotations: ANNOTATIONS,
  },
  '2025-06-18': {
    name: 'delete',
    title: 'Delete',
    description: 'Deletes a file',
    inputSchema: INPUT,
    annotations: ANNOTATIONS,
    _meta: { 'com.example/owner': 'files' },
  },
  '2025-11-25': {
    name: 'delete',
    title: 'Delete',
    description: 'Deletes a file',
    inputSchema: INPUT,
    annotations: ANNOTATIONS,
    icons: ICONS,
    _meta: { 'com.example/owner': 'files' },
  },
};

describe('tool metadata', () => {
  for (const [revision, tool] of Object.entries(EXPECTED)) {
    it(`[tools.display-metadata, messages.revision-fields] lists exactly the fields ${revision} defines`, async () => {
      const s = new McpServer({ name: 'meta', version: '1.0.0' });
      s.tool(
        {
          name: 'delete',
          title: 'Delete',
          description: 'Deletes a file',
          inputSchema: INPUT,
          annotations: ANNOTATIONS,
          icons: ICONS,
          _meta: { 'com.example/owner': 'files' },
        },
        () => ({ content: [] }),
      );
      const wire = await Wire.open(s, revision);
      assert.deepEqual(await wire.result('tools/list'), { tools: [tool] });
      await wire.close();
    });
  }
});
