// Server capabilities are derived from what is registered, and encoded for the negotiated revision.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

async function capabilitiesOf(server: McpServer, revision = '2025-11-25'): Promise<Record<string, unknown>> {
  const wire = new Wire(server);
  const response = await wire.initialize(revision);
  await wire.close();
  return response.result?.capabilities as Record<string, unknown>;
}

function bare(): McpServer {
  return new McpServer({ name: 'caps', version: '1.0.0' });
}

describe('capabilities', () => {
  it('[capabilities.features, capabilities.logging] declares only logging when nothing is registered', async () => {
    assert.deepEqual(await capabilitiesOf(bare()), { logging: {} });
  });

  it('[capabilities.features, capabilities.sub-capabilities] declares tools with listChanged once a tool is registered', async () => {
    const s = bare();
    s.tool({ name: 't' }, () => ({ content: [] }));
    assert.deepEqual(await capabilitiesOf(s), { logging: {}, tools: { listChanged: true } });
  });

  it('[capabilities.features, capabilities.sub-capabilities] declares resources with subscribe and listChanged for a resource or a template', async () => {
    const fixed = bare();
    fixed.resource({ uri: 'mem://a', name: 'a' }, (uri) => [{ uri, text: '' }]);
    assert.deepEqual(await capabilitiesOf(fixed), {
      logging: {},
      resources: { subscribe: true, listChanged: true },
    });
    const templated = bare();
    templated.resourceTemplate({ uriTemplate: 'mem://{id}', name: 'by id' }, (uri) => [{ uri, text: '' }]);
    assert.deepEqual((await capabilitiesOf(templated)).resources, { subscribe: true, listChanged: true });
  });

  it('[capabilities.features] declares prompts once a prompt is registered, and not completions without a completer', async () => {
    const s = bare();
    s.prompt({ name: 'p' }, () => ({ messages: [] }));
    assert.deepEqual(await capabilitiesOf(s), { logging: {}, prompts: { listChanged: true } });
  });

  it('[capabilities.completions] declares completions when a prompt or a template can complete', async () => {
    const prompt = bare();
    prompt.prompt({ name: 'p', arguments: [{ name: 'x' }], complete: { x: () => ['y'] } }, () => ({
      messages: [],
    }));
    assert.deepEqual((await capabilitiesOf(prompt)).completions, {});
    const template = bare();
    template.resourceTemplate(
      { uriTemplate: 'mem://{id}', name: 'by id', complete: { id: () => ['1'] } },
      (uri) => [{ uri, text: '' }],
    );
    assert.deepEqual((await capabilitiesOf(template)).completions, {});
  });

  it('[capabilities.completions, messages.revision-fields] leaves completions out in 2024-11-05, which has no such capability', async () => {
    const s = bare();
    s.prompt({ name: 'p', arguments: [{ name: 'x' }], complete: { x: () => ['y'] } }, () => ({
      messages: [],
    }));
    assert.deepEqual(await capabilitiesOf(s, '2024-11-05'), { logging: {}, prompts: { listChanged: true } });
    assert.deepEqual((await capabilitiesOf(s, '2025-03-26')).completions, {});
  });

  it('[capabilities.features] reflects registrations made after an earlier session started', async () => {
    const s = bare();
    assert.equal((await capabilitiesOf(s)).tools, undefined);
    const registration = s.tool({ name: 't' }, () => ({ content: [] }));
    assert.deepEqual((await capabilitiesOf(s)).tools, { listChanged: true });
    registration.remove();
    assert.equal((await capabilitiesOf(s)).tools, undefined);
  });

  it('[lifecycle.initialize-result, messages.revision-fields] sends serverInfo fields only in revisions that define them', async () => {
    const info = {
      name: 'caps',
      version: '1.0.0',
      title: 'Capabilities',
      description: 'A server',
      websiteUrl: 'https://example.com',
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }],
    };
    const expected: Record<string, Record<string, unknown>> = {
      '2024-11-05': { name: 'caps', version: '1.0.0' },
      '2025-03-26': { name: 'caps', version: '1.0.0' },
      '2025-06-18': { name: 'caps', version: '1.0.0', title: 'Capabilities' },
      '2025-11-25': info,
    };
    for (const [revision, serverInfo] of Object.entries(expected)) {
      const wire = new Wire(new McpServer(info));
      const response = await wire.initialize(revision);
      assert.deepEqual(response.result?.serverInfo, serverInfo, revision);
      await wire.close();
    }
  });
});
