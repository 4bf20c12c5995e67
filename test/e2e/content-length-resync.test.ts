// A real server over the Content-Length framing, sent one malformed frame between valid ones: it used to
// say nothing and drop every later frame, so the client hung. Now the bad frame is answered with -32700
// (id null) and the next request is answered as usual.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { encodeFrame, FrameDecoder } from '../../src/jsonrpc.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'mcpwire.js');
const frame = (message: unknown) => encodeFrame(JSON.stringify(message), 'content-length');

describe('serve everything over Content-Length framing, after a malformed frame', { timeout: 20_000 }, () => {
  it('bug: a bad length silenced the server; it answers -32700, then the next request', async () => {
    const child = spawn(process.execPath, [bin, 'serve', 'everything'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const answers: Array<{ id?: unknown; error?: { code: number; message: string }; result?: unknown }> = [];
    let wake: (() => void) | undefined;
    const decoder = new FrameDecoder({
      frame: (text) => {
        answers.push(JSON.parse(text));
        wake?.();
      },
      oversize: () => assert.fail('oversize'),
      framingError: (message) => assert.fail(message),
    });
    child.stdout.on('data', (chunk: Buffer) => decoder.push(chunk));
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise<void>((resolve) => (wake = resolve));
    };
    try {
      child.stdin.write(
        frame({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      );
      await until(() => answers.length === 1);
      child.stdin.write('Content-Length: 1e2\r\n\r\n{"jsonrpc":"2.0","id":2,"method":"ping"}');
      child.stdin.write(frame({ jsonrpc: '2.0', id: 3, method: 'ping' }));
      await until(() => answers.some((a) => a.id === 3));
      // The bad header, then its body (bytes outside any frame): each answered -32700 with id null.
      const errors = answers.slice(1, -1);
      assert.ok(errors.length >= 1);
      for (const error of errors) assert.deepEqual([error.id, error.error?.code], [null, -32700]);
      assert.match(errors[0]?.error?.message ?? '', /"1e2" is not a length in bytes/);
      assert.deepEqual(answers.at(-1), { jsonrpc: '2.0', id: 3, result: {} });
    } finally {
      child.kill();
    }
  });
});
