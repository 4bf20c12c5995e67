// resources/read: fixed URIs and templates, text and base64 blob contents, and -32002 with the URI in
// data for a resource that does not exist.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { streamedFile } from '../../src/server/streamed-file.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

const BYTES = Buffer.from([0, 1, 2, 250, 251, 255, 0x89, 0x50, 0x4e, 0x47]);

function server(): { server: McpServer; reads: Array<[string, unknown]> } {
  const reads: Array<[string, unknown]> = [];
  const s = new McpServer({ name: 'resources', version: '1.0.0' });
  s.resource({ uri: 'file:///readme.md', name: 'readme', mimeType: 'text/markdown' }, (uri) => [
    { uri, mimeType: 'text/markdown', text: '# Read me\nünïcödé ✓' },
  ]);
  s.resource({ uri: 'file:///logo.bin', name: 'logo' }, (uri) => ({
    contents: [{ uri, mimeType: 'application/octet-stream', blob: BYTES.toString('base64') }],
  }));
  s.resource({ uri: 'file:///gone', name: 'gone' }, () => []);
  s.resourceTemplate({ uriTemplate: 'mem://users/{id}/notes{?sort}', name: 'notes' }, (uri, variables) => {
    reads.push([uri, variables]);
    return [{ uri, mimeType: 'application/json', text: JSON.stringify(variables) }];
  });
  s.resourceTemplate({ uriTemplate: 'file:///docs/{+path}', name: 'docs' }, (uri, variables) => [
    { uri, text: `doc at ${String(variables.path)}` },
  ]);
  return { server: s, reads };
}

describe('resources/read of a streamedFile', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`answers the file's text and bytes, on a transport that reads it into a string first (${revision})`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-streamed-'));
      try {
        const text = 'line "one"\n\tünïcödé ✓ 😀\u0001\n'.repeat(1000);
        writeFileSync(path.join(dir, 'a.txt'), text);
        writeFileSync(path.join(dir, 'a.bin'), BYTES);
        const s = new McpServer({ name: 'streamed', version: '1.0.0' });
        s.resource({ uri: 'file:///a.txt', name: 'a' }, async (uri) => [
          { uri, mimeType: 'text/plain', text: await streamedFile(path.join(dir, 'a.txt'), 'text') },
        ]);
        s.resource({ uri: 'file:///a.bin', name: 'b' }, async (uri) => [
          { uri, blob: await streamedFile(path.join(dir, 'a.bin'), 'base64') },
        ]);
        const wire = await Wire.open(s, revision);
        assert.deepEqual(await wire.result('resources/read', { uri: 'file:///a.txt' }), {
          contents: [{ uri: 'file:///a.txt', mimeType: 'text/plain', text }],
        });
        assert.deepEqual(await wire.result('resources/read', { uri: 'file:///a.bin' }), {
          contents: [{ uri: 'file:///a.bin', blob: BYTES.toString('base64') }],
        });
        await wire.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('resources/read', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[resources.read-text] reads a fixed text resource (${revision})`, async () => {
      const wire = await Wire.open(server().server, revision);
      assert.deepEqual(await wire.result('resources/read', { uri: 'file:///readme.md' }), {
        contents: [{ uri: 'file:///readme.md', mimeType: 'text/markdown', text: '# Read me\nünïcödé ✓' }],
      });
      await wire.close();
    });

    it(`[resources.read-blob] reads binary contents as base64 that decodes to the same bytes (${revision})`, async () => {
      const wire = await Wire.open(server().server, revision);
      const result = await wire.result<{ contents: Array<{ blob: string }> }>('resources/read', {
        uri: 'file:///logo.bin',
      });
      assert.match(result.contents[0]!.blob, /^[A-Za-z0-9+/]*={0,2}$/);
      assert.deepEqual(Buffer.from(result.contents[0]!.blob, 'base64'), BYTES);
      await wire.close();
    });

    it(`[resources.not-found, messages.error-shape] answers a missing resource with -32002 and the URI in data (${revision})`, async () => {
      const wire = await Wire.open(server().server, revision);
      for (const uri of ['file:///nope.txt', 'mem://users/7/notes/extra', 'file:///gone']) {
        const error = await wire.error('resources/read', { uri });
        assert.equal(error.code, -32002);
        assert.equal(error.message, `Resource not found: ${uri}`);
        assert.deepEqual(error.data, { uri });
      }
      await wire.close();
    });
  }

  it('[resources.templates, uri-template.match] reads a URI through the template it matches, with its variables', async () => {
    const { server: s, reads } = server();
    const wire = await Wire.open(s, '2025-11-25');
    const uri = 'mem://users/ada%20l/notes?sort=new';
    const result = await wire.result<{ contents: Array<{ text: string }> }>('resources/read', { uri });
    assert.deepEqual(JSON.parse(result.contents[0]!.text), { id: 'ada l', sort: 'new' });
    assert.deepEqual(reads, [[uri, { id: 'ada l', sort: 'new' }]]);
    const doc = await wire.result<{ contents: Array<{ uri: string; text: string }> }>('resources/read', {
      uri: 'file:///docs/guide/intro.md',
    });
    assert.deepEqual(doc.contents, [{ uri: 'file:///docs/guide/intro.md', text: 'doc at guide/intro.md' }]);
    await wire.close();
  });

  it('[resources.read-text] answers a read without a string uri with -32602', async () => {
    const wire = await Wire.open(server().server, '2025-11-25');
    for (const params of [{}, { uri: 42 }]) {
      const error = await wire.error('resources/read', params);
      assert.equal(error.code, -32602);
      assert.match(error.message, /"uri"/);
    }
    await wire.close();
  });
});
