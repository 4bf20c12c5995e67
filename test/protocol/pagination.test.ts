// Pagination with opaque cursors on every list method: pages follow each other to the end, the last has
// no nextCursor, and a cursor the server did not issue for that list is -32602.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Resource } from '../../src/protocol/types.js';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

const PAGE = 2;
const LISTS = [
  { method: 'tools/list', key: 'tools', id: 'name' },
  { method: 'prompts/list', key: 'prompts', id: 'name' },
  { method: 'resources/list', key: 'resources', id: 'uri' },
  { method: 'resources/templates/list', key: 'resourceTemplates', id: 'uriTemplate' },
] as const;

function server(): { server: McpServer; expected: Record<string, string[]> } {
  const s = new McpServer({ name: 'pages', version: '1.0.0', pageSize: PAGE });
  const expected: Record<string, string[]> = { tools: [], prompts: [], resources: [], resourceTemplates: [] };
  for (let i = 0; i < 5; i++) {
    s.tool({ name: `tool_${i}` }, () => ({ content: [] }));
    expected.tools!.push(`tool_${i}`);
    s.prompt({ name: `prompt_${i}` }, () => ({ messages: [] }));
    expected.prompts!.push(`prompt_${i}`);
    s.resource({ uri: `mem:///fixed/${i}`, name: `fixed ${i}` }, (uri) => [{ uri, text: '' }]);
    expected.resources!.push(`mem:///fixed/${i}`);
  }
  // A template that lists all its resources at once (the server pages them)...
  const all: Resource[] = [0, 1, 2].map((i) => ({ uri: `mem:///all/${i}`, name: `all ${i}` }));
  s.resourceTemplate({ uriTemplate: 'mem:///all/{i}', name: 'all', list: () => all }, (uri) => [
    { uri, text: '' },
  ]);
  expected.resources!.push(...all.map((r) => r.uri));
  // ...and one that pages its own listing, with positions of its own.
  const walked = ['a', 'b', 'c', 'd', 'e'];
  s.resourceTemplate(
    {
      uriTemplate: 'mem:///walk/{x}',
      name: 'walk',
      list: (_ctx, { after, limit }) => {
        const start = after === undefined ? 0 : walked.indexOf(after) + 1;
        const slice = walked.slice(start, start + limit);
        const resources = slice.map((x) => ({ uri: `mem:///walk/${x}`, name: x }));
        const last = slice.at(-1);
        return { resources, next: start + limit < walked.length ? last : undefined };
      },
    },
    (uri) => [{ uri, text: '' }],
  );
  expected.resources!.push(...walked.map((x) => `mem:///walk/${x}`));
  for (let i = 0; i < 3; i++) {
    s.resourceTemplate({ uriTemplate: `mem:///t${i}/{id}`, name: `t${i}` }, (uri) => [{ uri, text: '' }]);
  }
  expected.resourceTemplates = [
    'mem:///all/{i}',
    'mem:///walk/{x}',
    'mem:///t0/{id}',
    'mem:///t1/{id}',
    'mem:///t2/{id}',
  ];
  return { server: s, expected };
}

/** Every page of a list, following nextCursor. */
async function walk(wire: Wire, method: string): Promise<Array<Record<string, unknown>>> {
  const pages: Array<Record<string, unknown>> = [];
  let cursor: unknown;
  do {
    const page = await wire.result(method, cursor === undefined ? {} : { cursor });
    pages.push(page);
    cursor = page.nextCursor;
    assert.ok(pages.length < 50, 'the cursors go round in circles');
  } while (cursor !== undefined);
  return pages;
}

describe('pagination', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    for (const { method, key, id } of LISTS) {
      it(`[pagination.methods, pagination.opaque-cursor, pagination.end] pages through ${method} to its end (${revision})`, async () => {
        const { server: s, expected } = server();
        const wire = await Wire.open(s, revision);
        const pages = await walk(wire, method);
        const items = pages.flatMap((p) => p[key] as Array<Record<string, unknown>>);
        assert.deepEqual(
          items.map((item) => item[id]),
          expected[key],
        );
        for (const page of pages.slice(0, -1)) {
          assert.equal(typeof page.nextCursor, 'string');
          assert.ok((page[key] as unknown[]).length <= PAGE);
        }
        assert.equal('nextCursor' in pages.at(-1)!, false, 'the last page has a nextCursor');
        await wire.close();
      });
    }
  }

  it('[pagination.opaque-cursor] gives the same page for the same cursor twice', async () => {
    const wire = await Wire.open(server().server, '2025-11-25');
    const first = await wire.result('resources/list');
    const again = await wire.result('resources/list', { cursor: first.nextCursor });
    const repeat = await wire.result('resources/list', { cursor: first.nextCursor });
    assert.deepEqual(again, repeat);
    await wire.close();
  });

  for (const { method } of LISTS) {
    it(`[pagination.invalid-cursor] answers a cursor it did not issue for ${method} with -32602`, async () => {
      const wire = await Wire.open(server().server, '2025-11-25');
      const other = LISTS.find((l) => l.method !== method)!.method;
      const foreign = (await wire.result(other)).nextCursor;
      assert.equal(typeof foreign, 'string');
      for (const cursor of ['not-a-cursor', '', 42, { page: 2 }, foreign]) {
        const error = await wire.error(method, { cursor });
        assert.equal(error.code, -32602, `${method} with cursor ${JSON.stringify(cursor)}`);
        assert.match(error.message, /cursor/i);
      }
      await wire.close();
    });
  }

  it('[pagination.invalid-cursor] answers a cursor pointing past the end of the list with -32602', async () => {
    const wire = await Wire.open(server().server, '2025-11-25');
    const first = await wire.result('tools/list');
    const second = await wire.result('tools/list', { cursor: first.nextCursor });
    // A server with a single tool never issued a cursor for the third page of five tools.
    const small = new McpServer({ name: 'small', version: '1', pageSize: PAGE });
    small.tool({ name: 'only' }, () => ({ content: [] }));
    const other = await Wire.open(small, '2025-11-25');
    const error = await other.error('tools/list', { cursor: second.nextCursor });
    assert.equal(error.code, -32602);
    await wire.close();
    await other.close();
  });
});
