// A server that speaks like the seed document (its resources/read answers with `content`, where the
// specification says `contents`) still gets read: the client hands out the specification's shape.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectToFake } from '../support/fake-mcp-server.js';

describe('McpClient and servers written from early drafts', () => {
  it('bug: readResource handed out a result without contents when the server said `content`', async () => {
    const { client, server } = await connectToFake();
    const reading = client.readResource('file:///docs/readme.md');
    const request = await server.request('resources/read');
    const content = [{ uri: 'file:///docs/readme.md', mimeType: 'text/markdown', text: '# docs' }];
    server.reply(request.id, { content });
    assert.deepEqual(await reading, { contents: content });
    await client.close();
  });

  it('leaves a result that already has contents as it is', async () => {
    const { client, server } = await connectToFake();
    const reading = client.readResource('file:///a');
    const request = await server.request('resources/read');
    const contents = [{ uri: 'file:///a', text: 'a' }];
    server.reply(request.id, { contents });
    assert.deepEqual(await reading, { contents });
    await client.close();
  });
});
