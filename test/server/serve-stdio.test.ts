// McpServer.serveStdio() owns the process while it serves: stray writes to process.stdout go to stderr, so
// they cannot corrupt the protocol, and once stdin ends and every answer is flushed, stdout is given back
// and the process exits. In process: process.stdin, stdout and stderr are swapped for in-memory streams
// (the test runner keeps its own reference to the real stdout) and process.exit is a stub.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it, mock } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { cites } from '../support/requirements.js';

type Stream = 'stdin' | 'stdout' | 'stderr';

/** Runs `body` with the process's standard streams replaced by fresh PassThroughs. */
async function withProcessStreams(
  body: (streams: Record<Stream, PassThrough>) => Promise<void>,
): Promise<void> {
  const names: Stream[] = ['stdin', 'stdout', 'stderr'];
  const saved = names.map((name) => [name, Object.getOwnPropertyDescriptor(process, name)!] as const);
  const streams = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
  const exitCode = process.exitCode;
  for (const name of names) {
    Object.defineProperty(process, name, { configurable: true, enumerable: true, get: () => streams[name] });
  }
  try {
    await body(streams);
  } finally {
    for (const [name, descriptor] of saved) Object.defineProperty(process, name, descriptor);
    process.exitCode = exitCode;
  }
}

function text(stream: PassThrough): string {
  const chunk = stream.read() as Buffer | null;
  return chunk === null ? '' : chunk.toString('utf8');
}

describe('McpServer.serveStdio', () => {
  it(cites([
    'stdio.stdout-protocol-only',
    'stdio.exit-on-stdin-close',
  ])`sends stray stdout writes to stderr while it serves, then restores stdout and exits when stdin ends`, async () => {
    const server = new McpServer({ name: 'stdio', version: '1.0.0' });
    server.tool({ name: 'noisy' }, () => {
      process.stdout.write('stray print\n');
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    await withProcessStreams(async ({ stdin, stdout, stderr }) => {
      const write = stdout.write;
      let exited: () => void;
      const exitCalled = new Promise<void>((resolve) => {
        exited = resolve;
      });
      const exit = mock.method(process, 'exit', () => exited());
      try {
        const session = server.serveStdio();
        assert.notEqual(stdout.write, write, 'stdout.write is guarded while the server runs');
        stdin.write(
          '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n',
        );
        stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
        stdin.end('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"noisy"}}\n');
        await exitCalled;
        assert.equal(exit.mock.callCount(), 1);
        assert.equal(session.connection.closed !== undefined, true);
        assert.equal(stdout.write, write, 'stdout.write is given back once the server has closed');
        assert.equal(process.exitCode, 0);
        const answers = text(stdout)
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as { id: number });
        assert.deepEqual(
          answers.map((a) => a.id),
          [1, 2],
        );
        assert.deepEqual((answers[1] as unknown as { result: unknown }).result, {
          content: [{ type: 'text', text: 'ok' }],
        });
        assert.equal(text(stderr), 'stray print\n');
      } finally {
        exit.mock.restore();
      }
    });
  });

  it('with exitOnClose false and guardStdout false it neither exits nor patches stdout', async () => {
    const server = new McpServer({ name: 'stdio', version: '1.0.0' });
    await withProcessStreams(async ({ stdin, stdout }) => {
      const write = stdout.write;
      const exit = mock.method(process, 'exit', () => {});
      try {
        const session = server.serveStdio({ exitOnClose: false, guardStdout: false });
        assert.equal(stdout.write, write);
        const closed = new Promise<void>((resolve) => session.connection.onClose(() => resolve()));
        stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
        await closed;
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(exit.mock.callCount(), 0);
        assert.equal(text(stdout), '{"jsonrpc":"2.0","id":1,"result":{}}\n');
      } finally {
        exit.mock.restore();
      }
    });
  });
});
