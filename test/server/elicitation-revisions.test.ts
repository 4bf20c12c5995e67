// Regression tests: elicitation/create went on the wire in sessions of revisions that have no
// elicitation (2024-11-05, 2025-03-26) when the client declared the capability anyway, and URL-mode
// elicitation went to 2025-06-18 sessions (URL mode came with 2025-11-25). Both are refused now, before
// anything is sent, with an error naming the revision.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ElicitRequestParams } from '../../src/protocol/types.js';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

const FORM: ElicitRequestParams = { message: 'Name?', requestedSchema: { type: 'object', properties: {} } };
const URL_MODE: ElicitRequestParams = {
  mode: 'url',
  message: 'Sign in',
  elicitationId: 'e',
  url: 'https://example.com',
};

function server(params: ElicitRequestParams): McpServer {
  const s = new McpServer({ name: 'elicit', version: '1.0.0' });
  s.tool({ name: 'ask' }, async (_args, ctx) => {
    try {
      await ctx.elicit(params);
      return { content: [{ type: 'text', text: 'sent' }] };
    } catch (error) {
      return { content: [{ type: 'text', text: (error as Error).message }] };
    }
  });
  return s;
}

describe('elicitation and the negotiated revision', () => {
  for (const [revision, params, since] of [
    ['2024-11-05', FORM, '2025-06-18'],
    ['2025-03-26', FORM, '2025-06-18'],
    ['2025-06-18', URL_MODE, '2025-11-25'],
  ] as const) {
    it(`[lifecycle.negotiated-version, client.elicitation] bug: ${params.mode ?? 'form'} elicitation was sent in a ${revision} session`, async () => {
      const wire = await Wire.open(server(params), revision, {
        capabilities: { elicitation: { form: {}, url: {} } },
      });
      const before = wire.received.length;
      const result = await wire.result<{ content: Array<{ text: string }> }>('tools/call', { name: 'ask' });
      assert.equal(wire.received.length, before + 1, 'a request went to the client');
      assert.match(result.content[0]!.text, new RegExp(`protocol revision ${revision}.*${since}`));
      await wire.close();
    });
  }
});
