// resources/list and resources/templates/list: what is registered, in order, encoded per revision.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

const ICONS = [{ src: 'https://example.com/doc.png', mimeType: 'image/png' }];
const read = (uri: string) => [{ uri, text: '' }];

function server(): McpServer {
  const s = new McpServer({ name: 'listing', version: '1.0.0' });
  s.resource(
    {
      uri: 'file:///readme.md',
      name: 'readme',
      title: 'Read me',
      description: 'Start here',
      mimeType: 'text/markdown',
      size: 1024,
      annotations: { audience: ['user'], priority: 1 },
      icons: ICONS,
    },
    read,
  );
  s.resourceTemplate(
    {
      uriTemplate: 'file:///docs/{+path}',
      name: 'docs',
      title: 'Documentation',
      description: 'Any document',
      mimeType: 'text/markdown',
      icons: ICONS,
      list: () => [{ uri: 'file:///docs/a.md', name: 'a.md' }],
    },
    read,
  );
  return s;
}

const RESOURCE = {
  uri: 'file:///readme.md',
  name: 'readme',
  description: 'Start here',
  mimeType: 'text/markdown',
  size: 1024,
  annotations: { audience: ['user'], priority: 1 },
};
const TEMPLATE = {
  uriTemplate: 'file:///docs/{+path}',
  name: 'docs',
  description: 'Any document',
  mimeType: 'text/markdown',
};

const BY_REVISION: Record<string, { resource: object; template: object }> = {
  '2024-11-05': { resource: RESOURCE, template: TEMPLATE },
  '2025-03-26': { resource: RESOURCE, template: TEMPLATE },
  '2025-06-18': {
    resource: { ...RESOURCE, title: 'Read me' },
    template: { ...TEMPLATE, title: 'Documentation' },
  },
  '2025-11-25': {
    resource: { ...RESOURCE, title: 'Read me', icons: ICONS },
    template: { ...TEMPLATE, title: 'Documentation', icons: ICONS },
  },
};

describe('resource listings', () => {
  for (const [revision, { resource, template }] of Object.entries(BY_REVISION)) {
    it(`[resources.list, messages.revision-fields] lists fixed resources, then what templates list (${revision})`, async () => {
      const wire = await Wire.open(server(), revision);
      assert.deepEqual(await wire.result('resources/list'), {
        resources: [resource, { uri: 'file:///docs/a.md', name: 'a.md' }],
      });
      await wire.close();
    });

    it(`[resources.templates, messages.revision-fields] lists templates without their listers and completers (${revision})`, async () => {
      const wire = await Wire.open(server(), revision);
      assert.deepEqual(await wire.result('resources/templates/list'), { resourceTemplates: [template] });
      await wire.close();
    });
  }

  it('[resources.list] lists nothing, with no cursor, when nothing is registered but capabilities say resources', async () => {
    const s = new McpServer({ name: 'empty', version: '1.0.0', capabilities: { resources: {} } });
    const wire = await Wire.open(s, '2025-11-25');
    assert.deepEqual(await wire.result('resources/list'), { resources: [] });
    assert.deepEqual(await wire.result('resources/templates/list'), { resourceTemplates: [] });
    await wire.close();
  });
});
