// A kept-alive connection that the server closes just as the client sends the next request on it: the
// server's idle timeout (5 s in node:http) ran out while the client was busy elsewhere. The conformance
// suite's client met it on a loaded CI machine, where the OAuth dance between two POSTs took over 5 s, and
// its transport ended with "cannot reach ...: the connection was reset". The client now keeps a connection
// idle for less than servers do (4 s, or what the server announces less a second), judged by the clock when
// a request goes out (a process short of CPU runs its I/O before its timers); and a GET or DELETE that meets
// a closed kept connection all the same goes once more on a new one. A POST never does: the server may
// have read it.
//
// The server here is a raw TCP one, so that what happens to each connection is exact: it answers the first
// request on a connection and, as the test says, closes the connection when a second one arrives on it.

import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { HttpRequester } from '../../src/transport/http/http-request.js';

interface Seen {
  connection: number;
  body: string;
}

/** Reads HTTP/1.1 requests with a Content-Length body off one socket, calling `onRequest` for each. */
function readRequests(socket: net.Socket, onRequest: (body: string) => void): void {
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString('latin1');
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      buffer = buffer.subarray(end + 4 + length);
      onRequest(body);
    }
  });
}

describe('HTTP client: a kept-alive connection the server closed', () => {
  let server: net.Server;
  let url: URL;
  let connections = 0;
  const seen: Seen[] = [];
  /** What the server does with a second request on a connection, and with a first one. */
  let onSecond: 'close' | 'answer' = 'close';
  let onFirst: 'answer' | 'close' = 'answer';

  before(async () => {
    server = net.createServer((socket) => {
      const connection = ++connections;
      let requests = 0;
      socket.on('error', () => {});
      readRequests(socket, (body) => {
        seen.push({ connection, body });
        requests++;
        const action = requests === 1 ? onFirst : onSecond;
        if (action === 'close') {
          socket.destroy();
          return;
        }
        const text = `answered on connection ${connection}`;
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: keep-alive\r\n\r\n${text}`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/mcp`);
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    connections = 0;
    seen.length = 0;
    onFirst = 'answer';
    onSecond = 'close';
  });

  it('does not send a request on a connection idle past its limit, though its timer has not fired', async (t) => {
    let now = 0;
    const requester = new HttpRequester({ now: () => now });
    t.after(() => requester.destroy());
    const first = await requester.request(url, { method: 'POST', body: 'one' });
    assert.equal(await first.text(), 'answered on connection 1');
    // Four seconds on the requester's clock, none on the socket timer's: a process that was not scheduled.
    now += 4000;
    const second = await requester.request(url, { method: 'POST', body: 'two' });
    assert.equal(await second.text(), 'answered on connection 2');
    assert.deepEqual(seen, [
      { connection: 1, body: 'one' },
      { connection: 2, body: 'two' },
    ]);
  });

  it('keeps using a connection idle for less than its limit', async (t) => {
    onSecond = 'answer';
    let now = 0;
    const requester = new HttpRequester({ now: () => now });
    t.after(() => requester.destroy());
    await (await requester.request(url, { method: 'POST', body: 'one' })).text();
    now += 3999;
    assert.equal(
      await (await requester.request(url, { method: 'POST', body: 'two' })).text(),
      'answered on connection 1',
    );
  });

  it('sends a GET once more on a new connection when the kept one was closed under it', async (t) => {
    const requester = new HttpRequester();
    t.after(() => requester.destroy());
    const first = await requester.request(url, { method: 'GET' });
    assert.equal(await first.text(), 'answered on connection 1');
    const second = await requester.request(url, { method: 'GET' });
    assert.equal(await second.text(), 'answered on connection 2');
    assert.deepEqual(
      seen.map((s) => s.connection),
      [1, 1, 2],
    );
  });

  it('never sends a POST twice: the server may have read it before it closed', async (t) => {
    const requester = new HttpRequester();
    t.after(() => requester.destroy());
    await (await requester.request(url, { method: 'POST', body: 'one' })).text();
    await assert.rejects(requester.request(url, { method: 'POST', body: 'two' }), (error: Error) => {
      assert.equal((error as NodeJS.ErrnoException).code, 'ECONNRESET');
      return true;
    });
    assert.deepEqual(seen, [
      { connection: 1, body: 'one' },
      { connection: 1, body: 'two' },
    ]);
  });

  it('does not send again what failed on a fresh connection, nor more than once', async (t) => {
    const requester = new HttpRequester();
    t.after(() => requester.destroy());
    onFirst = 'close';
    await assert.rejects(requester.request(url, { method: 'GET' }), /ECONNRESET|socket hang up/);
    assert.equal(seen.length, 1, 'sent again after a fresh connection failed');
    onFirst = 'answer';
    await (await requester.request(url, { method: 'GET' })).text();
    onFirst = 'close';
    await assert.rejects(requester.request(url, { method: 'GET' }), /ECONNRESET|socket hang up/);
    assert.deepEqual(
      seen.map((s) => s.connection),
      [1, 2, 2, 3],
      'a GET is sent again once, on a new connection, and no more',
    );
  });
});
