// StdioServerTransport is a transport and nothing more: made by a library user, over given streams or over
// the process's own, it neither patches process.stdout nor exits the process. Both belong to the server
// layer's McpServer.serveStdio() (test/server/serve-stdio.test.ts).

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it, mock } from 'node:test';
import { StdioServerTransport } from '../../src/transport/stdio.js';

describe('StdioServerTransport', () => {
  it('regression: over given streams it leaves process.stdout.write untouched and never calls process.exit', async () => {
    const exit = mock.method(process, 'exit', () => {});
    const write = process.stdout.write;
    try {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const transport = new StdioServerTransport({ stdin, stdout });
      let closed = false;
      transport.start({
        message: (payload) => transport.send(payload as never),
        frameError: () => {},
        inputEnded: () => void transport.close(),
        closed: () => {
          closed = true;
        },
      });
      assert.equal(process.stdout.write, write);
      stdin.end('{"jsonrpc":"2.0","method":"echo"}\n');
      await transport.whenClosed();
      // The old transport exited from a setImmediate after closing: give it that turn.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      assert.ok(closed);
      assert.equal(String(stdout.read()), '{"jsonrpc":"2.0","method":"echo"}\n');
      assert.equal(process.stdout.write, write);
      assert.equal(exit.mock.callCount(), 0);
    } finally {
      process.stdout.write = write;
      exit.mock.restore();
    }
  });

  it('regression: over the process streams it does not patch process.stdout.write either', () => {
    const write = process.stdout.write;
    try {
      // Not started, so process.stdin is not read.
      new StdioServerTransport();
      assert.equal(process.stdout.write, write);
    } finally {
      process.stdout.write = write;
    }
  });
});
