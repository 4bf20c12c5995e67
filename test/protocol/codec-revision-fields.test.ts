// Regression tests for fields that leaked into revisions that do not define them. The codec promises that
// fields a revision does not know are dropped; these went through before the fix:
//   - PromptArgument.title (2025-06-18) in 2024-11-05 and 2025-03-26 prompt listings;
//   - _meta on content blocks and resource contents (2025-06-18) in older revisions;
//   - annotations.lastModified (2025-06-18) on content, resources and templates in older revisions;
//   - icons of a resource link (2025-11-25) in 2025-06-18.
// Each message is also checked against the revision's schema, strictly, by the Wire.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

const ANNOTATIONS = { audience: ['user' as const], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' };
const ICONS = [{ src: 'https://example.com/a.png' }];
const before = (revision: string, since: string) => revision < since;

describe('fields of later revisions', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[messages.revision-fields] bug: prompt argument titles leaked into ${revision} listings`, async () => {
      const s = new McpServer({ name: 'fields', version: '1.0.0' });
      s.prompt({ name: 'p', arguments: [{ name: 'lang', title: 'Language', required: true }] }, () => ({
        messages: [],
      }));
      const wire = await Wire.open(s, revision);
      const { prompts } = await wire.result<{ prompts: Array<{ arguments: object[] }> }>('prompts/list');
      const argument = before(revision, '2025-06-18')
        ? { name: 'lang', required: true }
        : { name: 'lang', title: 'Language', required: true };
      assert.deepEqual(prompts[0]?.arguments, [argument]);
      await wire.close();
    });

    it(`[messages.revision-fields, tools.content] bug: _meta and annotations.lastModified of content leaked into ${revision}`, async () => {
      const s = new McpServer({ name: 'fields', version: '1.0.0' });
      s.tool({ name: 't' }, () => ({
        content: [
          { type: 'text', text: 'x', annotations: ANNOTATIONS, _meta: { 'com.example/k': 1 } },
          {
            type: 'resource',
            resource: { uri: 'mem://r', text: 'r', _meta: { 'com.example/k': 2 } },
            annotations: ANNOTATIONS,
          },
          { type: 'resource_link', uri: 'mem://l', name: 'l', icons: ICONS },
        ],
      }));
      s.prompt({ name: 'p' }, () => ({
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: 'y', annotations: ANNOTATIONS, _meta: { 'com.example/k': 3 } },
          },
        ],
      }));
      const wire = await Wire.open(s, revision);
      const old = before(revision, '2025-06-18');
      const annotations = old ? { audience: ['user'], priority: 0.5 } : ANNOTATIONS;
      const { content } = await wire.result<{ content: object[] }>('tools/call', { name: 't' });
      assert.deepEqual(content[0], {
        type: 'text',
        text: 'x',
        annotations,
        ...(old ? {} : { _meta: { 'com.example/k': 1 } }),
      });
      assert.deepEqual(content[1], {
        type: 'resource',
        resource: { uri: 'mem://r', text: 'r', ...(old ? {} : { _meta: { 'com.example/k': 2 } }) },
        annotations,
      });
      if (revision === '2025-06-18')
        assert.deepEqual(content[2], { type: 'resource_link', uri: 'mem://l', name: 'l' });
      const { messages } = await wire.result<{ messages: Array<{ content: object }> }>('prompts/get', {
        name: 'p',
      });
      assert.deepEqual(messages[0]?.content, {
        type: 'text',
        text: 'y',
        annotations,
        ...(old ? {} : { _meta: { 'com.example/k': 3 } }),
      });
      await wire.close();
    });

    it(`[messages.revision-fields, resources.list] bug: annotations.lastModified and contents _meta of resources leaked into ${revision}`, async () => {
      const s = new McpServer({ name: 'fields', version: '1.0.0' });
      s.resource({ uri: 'mem://a', name: 'a', annotations: ANNOTATIONS }, (uri) => [
        { uri, text: 'a', _meta: { 'com.example/k': 4 } },
      ]);
      s.resourceTemplate({ uriTemplate: 'mem://t/{x}', name: 't', annotations: ANNOTATIONS }, (uri) => [
        { uri, text: '' },
      ]);
      const wire = await Wire.open(s, revision);
      const old = before(revision, '2025-06-18');
      const annotations = old ? { audience: ['user'], priority: 0.5 } : ANNOTATIONS;
      const { resources } = await wire.result<{ resources: Array<{ annotations: object }> }>(
        'resources/list',
      );
      assert.deepEqual(resources[0]?.annotations, annotations);
      const { resourceTemplates } = await wire.result<{ resourceTemplates: Array<{ annotations: object }> }>(
        'resources/templates/list',
      );
      assert.deepEqual(resourceTemplates[0]?.annotations, annotations);
      const { contents } = await wire.result<{ contents: object[] }>('resources/read', { uri: 'mem://a' });
      assert.deepEqual(contents, [
        { uri: 'mem://a', text: 'a', ...(old ? {} : { _meta: { 'com.example/k': 4 } }) },
      ]);
      await wire.close();
    });
  }
});
