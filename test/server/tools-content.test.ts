// The content of tool results: every kind passes as is where the revision has it; kinds a revision lacks
// (audio before 2025-03-26, resource links before 2025-06-18) become text that says what they were.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContentBlock } from '../../src/protocol/types.js';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64');
const TEXT: ContentBlock = {
  type: 'text',
  text: 'hello',
  annotations: { audience: ['user'], priority: 0.5 },
};
const IMAGE: ContentBlock = { type: 'image', data: PNG, mimeType: 'image/png' };
const AUDIO: ContentBlock = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' };
const LINK: ContentBlock = {
  type: 'resource_link',
  uri: 'file:///notes.md',
  name: 'notes.md',
  mimeType: 'text/markdown',
};
const EMBEDDED: ContentBlock = {
  type: 'resource',
  resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' },
};
const BLOB: ContentBlock = {
  type: 'resource',
  resource: { uri: 'file:///logo.png', mimeType: 'image/png', blob: PNG },
};

describe('tool result content', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[tools.content, messages.revision-fields] sends every content kind ${revision} has, and text for the others`, async () => {
      const s = new McpServer({ name: 'content', version: '1.0.0' });
      s.tool({ name: 'everything' }, () => ({ content: [TEXT, IMAGE, AUDIO, LINK, EMBEDDED, BLOB] }));
      const wire = await Wire.open(s, revision);
      const result = await wire.result<{ content: ContentBlock[] }>('tools/call', { name: 'everything' });
      const audio: ContentBlock =
        revision >= '2025-03-26'
          ? AUDIO
          : {
              type: 'text',
              text: `[audio content of type audio/wav, not supported by protocol ${revision}]`,
            };
      const link: ContentBlock =
        revision >= '2025-06-18' ? LINK : { type: 'text', text: 'Resource: file:///notes.md (notes.md)' };
      assert.deepEqual(result.content, [TEXT, IMAGE, audio, link, EMBEDDED, BLOB]);
      await wire.close();
    });
  }
});
