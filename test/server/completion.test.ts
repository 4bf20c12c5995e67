// completion/complete: prompt arguments and resource template variables, at most 100 values with total
// and hasMore, the context of resolved arguments (2025-06-18 on), and -32602 for what cannot be completed.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

const LANGUAGES = ['python', 'pytorch', 'rust', 'ruby'];

function server(): { server: McpServer; contexts: unknown[] } {
  const contexts: unknown[] = [];
  const s = new McpServer({ name: 'completion', version: '1.0.0' });
  s.prompt(
    {
      name: 'code_review',
      arguments: [{ name: 'language' }, { name: 'framework' }],
      complete: {
        language: (value) => LANGUAGES.filter((l) => l.startsWith(value)),
        framework: (value, context) => {
          contexts.push(context);
          const byLanguage: Record<string, string[]> = { python: ['django', 'flask'], rust: ['axum'] };
          return (byLanguage[context.arguments.language ?? ''] ?? []).filter((f) => f.startsWith(value));
        },
      },
    },
    () => ({ messages: [] }),
  );
  s.resourceTemplate(
    {
      uriTemplate: 'mem://numbers/{n}',
      name: 'numbers',
      complete: { n: async (value) => Array.from({ length: 250 }, (_, i) => `${value}${i}`) },
    },
    (uri) => [{ uri, text: '' }],
  );
  return { server: s, contexts };
}

type Completion = { completion: { values: string[]; total?: number; hasMore?: boolean } };

describe('completion/complete', () => {
  for (const revision of ['2025-03-26', '2025-06-18', '2025-11-25']) {
    it(`[completion.complete, capabilities.completions] completes a prompt argument (${revision})`, async () => {
      const wire = await Wire.open(server().server, revision);
      const result = await wire.result<Completion>('completion/complete', {
        ref: { type: 'ref/prompt', name: 'code_review' },
        argument: { name: 'language', value: 'py' },
      });
      assert.deepEqual(result, { completion: { values: ['python', 'pytorch'], total: 2, hasMore: false } });
      await wire.close();
    });
  }

  it('[completion.complete] completes a template variable, at most 100 values with total and hasMore', async () => {
    const wire = await Wire.open(server().server, '2025-11-25');
    const { completion } = await wire.result<Completion>('completion/complete', {
      ref: { type: 'ref/resource', uri: 'mem://numbers/{n}' },
      argument: { name: 'n', value: '7' },
    });
    assert.equal(completion.values.length, 100);
    assert.equal(completion.values[0], '70');
    assert.equal(completion.total, 250);
    assert.equal(completion.hasMore, true);
    await wire.close();
  });

  it('[completion.complete] answers an argument without a completer with no values', async () => {
    const s = new McpServer({ name: 'completion', version: '1.0.0' });
    s.prompt({ name: 'p', arguments: [{ name: 'a' }, { name: 'b' }], complete: { a: () => ['x'] } }, () => ({
      messages: [],
    }));
    const wire = await Wire.open(s, '2025-11-25');
    const result = await wire.result<Completion>('completion/complete', {
      ref: { type: 'ref/prompt', name: 'p' },
      argument: { name: 'b', value: '' },
    });
    assert.deepEqual(result, { completion: { values: [], total: 0, hasMore: false } });
    await wire.close();
  });

  it('[completion.context] passes the already resolved arguments to the completer', async () => {
    const { server: s, contexts } = server();
    const wire = await Wire.open(s, '2025-06-18');
    const result = await wire.result<Completion>('completion/complete', {
      ref: { type: 'ref/prompt', name: 'code_review' },
      argument: { name: 'framework', value: 'f' },
      context: { arguments: { language: 'python' } },
    });
    assert.deepEqual(result.completion.values, ['flask']);
    const without = await wire.result<Completion>('completion/complete', {
      ref: { type: 'ref/prompt', name: 'code_review' },
      argument: { name: 'framework', value: '' },
    });
    assert.deepEqual(without.completion.values, []);
    assert.deepEqual(contexts, [{ arguments: { language: 'python' } }, { arguments: {} }]);
    await wire.close();
  });

  const INVALID: Array<[string, unknown, RegExp]> = [
    [
      'an unknown prompt',
      { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } },
      /Unknown prompt: nope/,
    ],
    [
      'an unknown template',
      { ref: { type: 'ref/resource', uri: 'mem://other/{x}' }, argument: { name: 'x', value: '' } },
      /Unknown resource template: mem:\/\/other\/\{x\}/,
    ],
    [
      'an unknown reference type',
      { ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a', value: '' } },
      /"ref"/,
    ],
    ['a missing argument', { ref: { type: 'ref/prompt', name: 'code_review' } }, /"argument"/],
    [
      'a non-string value',
      { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: 1 } },
      /"argument"/,
    ],
  ];
  for (const [what, params, message] of INVALID) {
    it(`[completion.errors] answers ${what} with -32602`, async () => {
      const wire = await Wire.open(server().server, '2025-11-25');
      const error = await wire.error('completion/complete', params);
      assert.equal(error.code, -32602);
      assert.match(error.message, message);
      await wire.close();
    });
  }
});
