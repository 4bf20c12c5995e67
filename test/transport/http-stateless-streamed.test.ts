// A 2026-07-28 request answered over Streamable HTTP with a streamed value (streamedFile, issue 21): the
// answer's JSON is written around the file's bytes as they are read, in the JSON body, or in the SSE event
// when something related to the request went first (progress); either way it reads back as the file.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { requestMetadataHeaders } from '../../src/protocol/http/metadata-headers.js';
import { McpServer } from '../../src/server/server.js';
import { streamedFile } from '../../src/server/streamed-file.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { EventReader, post } from '../support/http-helpers.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'streamed-tests', version: '1.0.0' },
};

// 3 MiB of text with every kind of escape and characters of 1 to 4 bytes: several chunks of the file.
const TEXT = 'a "quoted" line\\ with\ttabs\r\n\u0001 é € 中 😀\n'.repeat(80_000);
let dir: string;
let listener: HttpListener;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-stateless-streamed-'));
  writeFileSync(path.join(dir, 'big.txt'), TEXT);
  const server = new McpServer({ name: 'streamed', version: '1.0.0' });
  server.resource({ uri: 'file:///big.txt', name: 'big', mimeType: 'text/plain' }, async (uri, ctx) => {
    ctx.progress(1, 2, 'opening');
    return [{ uri, mimeType: 'text/plain', text: await streamedFile(path.join(dir, 'big.txt'), 'text') }];
  });
  listener = await server.serveHttp();
});

after(async () => {
  await listener.close();
  rmSync(dir, { recursive: true, force: true });
});

function read(id: number, progressToken?: string) {
  const message = {
    jsonrpc: '2.0',
    id,
    method: 'resources/read',
    params: { uri: 'file:///big.txt', _meta: { ...META, ...(progressToken ? { progressToken } : {}) } },
  };
  return post(listener.url, message, requestMetadataHeaders(message));
}

describe('Streamable HTTP, 2026-07-28: an answer with a streamed value', () => {
  it('is the JSON body, with the file read into it', async () => {
    const response = await read(1);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as { id: number; result: { contents: Array<{ text: string }> } };
    assert.equal(body.id, 1);
    assert.equal(body.result.contents[0]!.text, TEXT);
  });

  it('is the last SSE event when progress went first', async () => {
    const response = await read(2, 'p');
    assert.equal(response.status, 200);
    const events = new EventReader(response);
    const progress = await events.nextMessage();
    assert.equal(progress.message.method, 'notifications/progress');
    const answer = await events.nextMessage();
    const result = answer.message.result as { contents: Array<{ text: string }> };
    assert.equal(answer.message.id, 2);
    // The reader turns \r\n into \n in what it reads; the text's \r is escaped in the JSON, so it is intact.
    assert.equal(result.contents[0]!.text, TEXT);
    assert.equal(await events.next(), undefined);
  });
});
