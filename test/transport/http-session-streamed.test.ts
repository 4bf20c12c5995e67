// An answer with a streamed value (streamedFile, issue 21) in a Streamable HTTP session. Written whole at
// the end of its POST (a JSON answer, or an SSE stream that still held its head), its JSON goes around the
// file's bytes as they are read, chunked; on an SSE stream already open, the answer is an event stored for
// resumption, so the file is read into it first, and a resumed stream replays it whole. No value is left
// open either way.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { streamedPending } from '../../src/jsonrpc/streamed.js';
import { McpServer } from '../../src/server/server.js';
import { streamedFile } from '../../src/server/streamed-file.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { EventReader, openSession, post } from '../support/http-helpers.js';

// 3 MiB of text with every kind of escape and characters of 1 to 4 bytes: several chunks of the file.
const TEXT = 'a "quoted" line\\ with\ttabs\r\n\u0001 é € 中 😀\n'.repeat(80_000);
let dir: string;
const listeners: HttpListener[] = [];

function server(): McpServer {
  const s = new McpServer({ name: 'session-streamed', version: '1.0.0' });
  s.resource({ uri: 'file:///big.txt', name: 'big', mimeType: 'text/plain' }, async (uri) => [
    { uri, mimeType: 'text/plain', text: await streamedFile(path.join(dir, 'big.txt'), 'text') },
  ]);
  return s;
}

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-session-streamed-'));
  writeFileSync(path.join(dir, 'big.txt'), TEXT);
});

after(async () => {
  for (const listener of listeners) await listener.close();
  rmSync(dir, { recursive: true, force: true });
});

async function listening(options: { jsonResponse?: boolean }): Promise<string> {
  const listener = await server().serveHttp(options);
  listeners.push(listener);
  return listener.url;
}

const read = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'resources/read',
  params: { uri: 'file:///big.txt' },
});

describe('Streamable HTTP session: an answer with a streamed value', () => {
  it('as a JSON body: the file is written into it as it is read (chunked, no length)', async () => {
    const url = await listening({ jsonResponse: true });
    const session = await openSession(url);
    const response = await post(url, read(2), session.headers);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.headers.get('content-length'), null, 'the body was built whole');
    assert.equal(response.headers.get('transfer-encoding'), 'chunked');
    const body = (await response.json()) as { id: number; result: { contents: Array<{ text: string }> } };
    assert.equal(body.id, 2);
    assert.equal(body.result.contents[0]!.text, TEXT);
    assert.equal(streamedPending(), false, 'a streamed value was left open');
  });

  it('as an SSE event on an open stream: read whole, stored, and replayed whole on resumption', async () => {
    const url = await listening({});
    const session = await openSession(url);
    const response = await post(url, read(3), session.headers);
    const events = new EventReader(response);
    const priming = await events.next();
    assert.ok(priming?.id, 'the stream stayed open past its turn (the file opens later): it is primed');
    const answer = await events.nextMessage();
    assert.equal(answer.message.id, 3);
    // The reader turns \r\n into \n in what it reads; the text's \r is escaped in the JSON, so it is intact.
    assert.equal((answer.message.result as { contents: Array<{ text: string }> }).contents[0]!.text, TEXT);
    assert.equal(await events.next(), undefined);
    const replay = await fetch(url, {
      headers: { ...session.headers, Accept: 'text/event-stream', 'Last-Event-ID': priming.id },
    });
    const replayed = await new EventReader(replay).nextMessage();
    assert.equal((replayed.message.result as { contents: Array<{ text: string }> }).contents[0]!.text, TEXT);
    assert.equal(streamedPending(), false, 'a streamed value was left open');
  });
});
