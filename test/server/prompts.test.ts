// Prompts: listed with their arguments; prompts/get fills them in, with text, image and embedded-resource
// messages; an unknown name, a missing required argument or a non-string one is -32602.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GetPromptResult } from '../../src/protocol/types.js';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]).toString('base64');

function server(): { server: McpServer; calls: Array<Record<string, string>> } {
  const calls: Array<Record<string, string>> = [];
  const s = new McpServer({ name: 'prompts', version: '1.0.0' });
  s.prompt(
    {
      name: 'review',
      description: 'Review a file',
      arguments: [
        { name: 'file', description: 'The file to review', required: true },
        { name: 'focus', description: 'What to look at' },
      ],
    },
    (args): GetPromptResult => {
      calls.push(args);
      return {
        description: `Review of ${args.file}`,
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: `Review ${args.file}, looking at ${args.focus ?? 'everything'}.` },
          },
          { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri: `file:///${args.file}`, mimeType: 'text/plain', text: 'const x = 1;' },
            },
          },
          { role: 'assistant', content: { type: 'text', text: 'I will review it.' } },
        ],
      };
    },
  );
  s.prompt({ name: 'hello' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  }));
  return { server: s, calls };
}

describe('prompts', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[prompts.list] lists prompts with their arguments (${revision})`, async () => {
      const wire = await Wire.open(server().server, revision);
      assert.deepEqual(await wire.result('prompts/list'), {
        prompts: [
          {
            name: 'review',
            description: 'Review a file',
            arguments: [
              { name: 'file', description: 'The file to review', required: true },
              { name: 'focus', description: 'What to look at' },
            ],
          },
          { name: 'hello' },
        ],
      });
      await wire.close();
    });

    it(`[prompts.get, prompts.content] fills in arguments, with text, image and embedded-resource messages (${revision})`, async () => {
      const { server: s, calls } = server();
      const wire = await Wire.open(s, revision);
      const result = await wire.result<GetPromptResult>('prompts/get', {
        name: 'review',
        arguments: { file: 'main.ts', focus: 'naming' },
      });
      assert.equal(result.description, 'Review of main.ts');
      assert.deepEqual(
        result.messages.map((m) => [m.role, m.content.type]),
        [
          ['user', 'text'],
          ['user', 'image'],
          ['user', 'resource'],
          ['assistant', 'text'],
        ],
      );
      assert.deepEqual(result.messages[0]!.content, {
        type: 'text',
        text: 'Review main.ts, looking at naming.',
      });
      assert.deepEqual(result.messages[2]!.content, {
        type: 'resource',
        resource: { uri: 'file:///main.ts', mimeType: 'text/plain', text: 'const x = 1;' },
      });
      assert.deepEqual(calls, [{ file: 'main.ts', focus: 'naming' }]);
      await wire.close();
    });
  }

  it('[prompts.get] lets optional arguments be left out', async () => {
    const { server: s, calls } = server();
    const wire = await Wire.open(s, '2025-11-25');
    await wire.result('prompts/get', { name: 'review', arguments: { file: 'a.ts' } });
    await wire.result('prompts/get', { name: 'hello' });
    assert.deepEqual(calls, [{ file: 'a.ts' }]);
    await wire.close();
  });

  const INVALID: Array<[string, unknown, RegExp]> = [
    ['an unknown prompt', { name: 'reveiw', arguments: { file: 'a' } }, /Unknown prompt: reveiw/],
    [
      'a missing required argument',
      { name: 'review', arguments: { focus: 'x' } },
      /needs the argument "file"/,
    ],
    ['no arguments at all', { name: 'review' }, /needs the argument "file"/],
    [
      'a non-string argument',
      { name: 'review', arguments: { file: 3 } },
      /argument "file" .* must be a string/,
    ],
    [
      'arguments that are not an object',
      { name: 'review', arguments: ['a'] },
      /must be an object of strings/,
    ],
    ['no name', { arguments: {} }, /"name"/],
  ];
  for (const [what, params, message] of INVALID) {
    it(`[prompts.errors] answers ${what} with -32602 and does not run the prompt`, async () => {
      const { server: s, calls } = server();
      const wire = await Wire.open(s, '2025-11-25');
      const error = await wire.error('prompts/get', params);
      assert.equal(error.code, -32602);
      assert.match(error.message, message);
      assert.deepEqual(calls, []);
      await wire.close();
    });
  }
});
