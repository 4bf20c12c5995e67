// Streamable HTTP against a client that opens its GET stream and stops reading it while the server has
// much to say: the server must not keep everything for it in memory. Once more than maxStreamBacklog
// bytes wait on the stream, the server closes it; what was sent stays in the event store, so the client
// can resume with Last-Event-ID.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { listen, openSession, type Session } from '../support/http-helpers.js';

type Listening = Awaited<ReturnType<typeof listen>>;

describe('a GET stream whose client stops reading', { timeout: 30_000 }, () => {
  let t: Listening;
  let session: Session;

  before(async () => {
    t = await listen({ maxStreamBacklog: 1024 * 1024 });
    session = await openSession(t.listener.url);
  });

  after(async () => {
    await t?.listener.close();
  });

  it('is closed by the server once its backlog passes the limit, not buffered without bound', async () => {
    const url = new URL(t.listener.url);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const headers = Object.entries({ ...session.headers, Accept: 'text/event-stream' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n${headers}\r\n`);
    let text = '';
    // Read up to the priming event, then stop reading: the kernel's buffers fill, then the server's.
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (/\r\n\r\n[\s\S]*\n\n/.test(text)) {
          socket.off('data', onData);
          socket.pause();
          resolve();
        }
      };
      socket.on('data', onData);
    });
    assert.match(text, /^HTTP\/1\.1 200/);
    const count = 400;
    const line = 'x'.repeat(64 * 1024);
    for (let i = 0; i < count; i++) t.server.log('error', `${i} ${line}`);
    // Read everything now: the stream must have ended (closed by the server) before all 25 MiB came.
    let received = 0;
    const all = count * line.length;
    const ended = await new Promise<boolean>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= all) resolve(false);
      });
      socket.once('close', () => resolve(true));
      socket.resume();
    });
    socket.destroy();
    assert.ok(ended && received < all, `the server kept the whole backlog (${received} bytes)`);
  });
});
