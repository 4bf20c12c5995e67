// The client's HTTP requests (HttpRequester) against a raw TCP server, so that what goes on each
// connection is exact: each URL is requested as itself (the requester keeps the options of the last URL
// instead of having node:http convert it for every request), an answer's text is read whole, and a body
// cut short by a closed connection fails the read instead of leaving it waiting (the text is read with
// events, no longer with an async iterator, which failed it the same way). A request stopped just as its
// answer is read still reads the whole text (Node drops the 'data' listeners of a destroyed request's
// answer, which cut such a text short), and a body read twice or after cancel() is refused, not waited for.

import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HttpRequester, RequestStop } from '../../src/transport/http/http-request.js';

/** What the server answers a request with: its bytes (one char a byte), and whether it then closes the connection. */
type Answer = { bytes: string; close?: boolean };

describe('HTTP client requests: targets and answers', { timeout: 10_000 }, () => {
  let server: net.Server;
  let base: string;
  const targets: string[] = [];
  let answerOf: (target: string) => Answer = () => ({ bytes: '' });

  before(async () => {
    server = net.createServer((socket) => {
      socket.on('error', () => {});
      let buffer = '';
      socket.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('latin1');
        for (;;) {
          const end = buffer.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = buffer.slice(0, end);
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length < end + 4 + length) return;
          buffer = buffer.slice(end + 4 + length);
          const target = head.split(' ')[1]!;
          targets.push(target);
          const answer = answerOf(target);
          socket.write(Buffer.from(answer.bytes, 'latin1'));
          if (answer.close) socket.destroy();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ok = (body: string) =>
    `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

  it('requests each URL as itself, path and query, when the URL changes between requests', async () => {
    answerOf = (target) => ({ bytes: ok(target) });
    const requester = new HttpRequester();
    targets.length = 0;
    const urls = ['/mcp', '/mcp?x=1', '/other', '/mcp'].map((path) => new URL(path, base));
    const texts: string[] = [];
    for (const url of urls) texts.push(await (await requester.request(url, { method: 'GET' })).text());
    assert.deepEqual(targets, ['/mcp', '/mcp?x=1', '/other', '/mcp']);
    assert.deepEqual(texts, targets);
    requester.destroy();
  });

  it('reads a text sent in chunks whole, non-ASCII split across them', async () => {
    const text = 'première ligne\nzweite Zeile ✓';
    const bytes = Buffer.from(text, 'utf8');
    // Chunked, with a cut inside the two bytes of "è".
    const cut = bytes.indexOf(0xa8);
    const chunk = (part: Buffer) => `${part.length.toString(16)}\r\n${part.toString('latin1')}\r\n`;
    answerOf = () => ({
      bytes: `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${chunk(bytes.subarray(0, cut))}${chunk(bytes.subarray(cut))}0\r\n\r\n`,
    });
    const requester = new HttpRequester();
    const answer = await requester.request(new URL('/mcp', base), { method: 'POST', body: '{}' });
    assert.equal(await answer.text(), text);
    requester.destroy();
  });

  it('fails the read of a body the connection cut short, instead of waiting for the rest', async () => {
    answerOf = () => ({
      bytes: 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":',
      close: true,
    });
    const requester = new HttpRequester();
    const answer = await requester.request(new URL('/mcp', base), { method: 'POST', body: '{}' });
    await assert.rejects(answer.text());
    requester.destroy();
  });

  /** An answer of `text` whose whole body has reached the client, not read yet. */
  const arrived = async (requester: HttpRequester, text: string, signal?: RequestStop) => {
    answerOf = () => ({ bytes: ok(text) });
    const answer = await requester.request(new URL('/mcp', base), { method: 'POST', body: '{}', signal });
    const body = answer.body as import('node:http').IncomingMessage;
    // Waits on the condition, not for a time: the body is buffered by the parser as its bytes come.
    while (body.readableLength < Buffer.byteLength(text))
      await new Promise((resolve) => setImmediate(resolve));
    return answer;
  };

  it('reads the whole text of an answer whose request is stopped as the read begins', async () => {
    const text = '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}';
    const requester = new HttpRequester();
    const stop = new RequestStop();
    const answer = await arrived(requester, text, stop);
    const read = answer.text();
    queueMicrotask(() => stop.abort());
    assert.equal(await read, text);
    requester.destroy();
  });

  it('refuses a second read of an answer, and a read after cancel(), instead of waiting forever', async () => {
    const requester = new HttpRequester();
    const answer = await arrived(requester, 'once');
    assert.equal(await answer.text(), 'once');
    await assert.rejects(answer.text(), /already read or discarded/);
    const cancelled = await arrived(requester, 'never read');
    cancelled.cancel();
    await assert.rejects(cancelled.text(), /already read or discarded/);
    requester.destroy();
  });
});
