// notifications/{tools,resources,prompts}/list_changed when registrations change after the session
// started: on registration and on removal, to every initialized session, each validated in its revision.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

const read = (uri: string) => [{ uri, text: '' }];

const KINDS = [
  {
    kind: 'tools',
    register: (s: McpServer) => s.tool({ name: 'late' }, () => ({ content: [] })),
  },
  {
    kind: 'prompts',
    register: (s: McpServer) => s.prompt({ name: 'late' }, () => ({ messages: [] })),
  },
  {
    kind: 'resources',
    register: (s: McpServer) => s.resource({ uri: 'mem:///late', name: 'late' }, read),
  },
  {
    kind: 'resources',
    register: (s: McpServer) => s.resourceTemplate({ uriTemplate: 'mem:///late/{x}', name: 'late' }, read),
  },
] as const;

describe('list_changed notifications', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    for (const { kind, register } of KINDS) {
      it(`[tools.list-changed, prompts.list-changed, resources.list-changed, capabilities.sub-capabilities] notifies ${kind}/list_changed on registration and removal (${revision})`, async () => {
        const s = new McpServer({ name: 'changes', version: '1.0.0' });
        const wire = await Wire.open(s, revision);
        const method = `notifications/${kind}/list_changed`;
        const registration = register(s);
        await wire.settle();
        assert.equal(wire.notifications(method).length, 1);
        registration.remove();
        await wire.settle();
        assert.equal(wire.notifications(method).length, 2);
        // Removing twice changes nothing, so says nothing.
        registration.remove();
        await wire.settle();
        assert.equal(wire.notifications(method).length, 2);
        await wire.close();
      });
    }
  }

  it('[tools.list-changed] tells every connected session, and only about the list that changed', async () => {
    const s = new McpServer({ name: 'changes', version: '1.0.0' });
    const a = await Wire.open(s, '2025-11-25');
    const b = await Wire.open(s, '2024-11-05');
    s.tool({ name: 'late' }, () => ({ content: [] }));
    await a.settle();
    await b.settle();
    for (const wire of [a, b]) {
      assert.deepEqual(wire.notifications('notifications/tools/list_changed'), [{}]);
      assert.deepEqual(wire.notifications('notifications/prompts/list_changed'), []);
      assert.deepEqual(wire.notifications('notifications/resources/list_changed'), []);
    }
    const listed = await a.result<{ tools: Array<{ name: string }> }>('tools/list');
    assert.deepEqual(
      listed.tools.map((t) => t.name),
      ['late'],
    );
    await a.close();
    await b.close();
  });
});
