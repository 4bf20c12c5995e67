// Large messages through a real process: 10 MiB and 100 MiB of params sent to the echo fixture (mcpwire's
// own StdioServerTransport and Connection, from dist/) and back, through ChildProcessTransport. Kept apart
// from child-process.test.ts because each round trip copies the payload several times on both sides and
// the 100 MiB one takes seconds.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Connection, type ConnectionProblem } from '../../src/jsonrpc/connection.js';
import { type CloseReason, formatCloseReason } from '../../src/jsonrpc/errors.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const MiB = 1024 * 1024;

describe('ChildProcessTransport: large params round trips', () => {
  let connection: Connection;
  let closed: Promise<CloseReason>;
  const problems: ConnectionProblem[] = [];

  before(() => {
    assert.ok(
      existsSync(path.join(ROOT, 'dist', 'index.js')),
      'dist/index.js is missing: run `npm run build` first (the echo fixture imports the build)',
    );
    const transport = new ChildProcessTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'test', 'fixtures', 'transport', 'echo-server.mjs')],
    });
    connection = new Connection(transport, { timeout: 120_000, onProblem: (p) => problems.push(p) });
    closed = new Promise((resolve) => connection.onClose(resolve));
    connection.start();
  });

  after(async () => {
    await connection.close();
    const reason = await closed;
    assert.equal(reason.exitCode, 0, formatCloseReason(reason));
  });

  for (const size of [10 * MiB, 100 * MiB]) {
    it(`round-trips ${size / MiB} MiB of params intact`, { timeout: 120_000 }, async () => {
      // Mostly ASCII, with multi-byte characters at the start, the end and every 64 KiB in between, so
      // that pipe reads split some of them.
      const unit = `${'x'.repeat(64 * 1024 - 6)}é😀`;
      const data = `€${unit.repeat(Math.floor(size / Buffer.byteLength(unit)))}😀`;
      assert.ok(Buffer.byteLength(data) >= size - 64 * 1024);
      const result = await connection.request<{ data: string; n: number }>('echo', { data, n: size });
      assert.equal(result.n, size);
      assert.equal(typeof result.data, 'string');
      assert.equal(result.data.length, data.length);
      // Not assert.equal: a failure would print both 100 MiB strings.
      assert.ok(result.data === data, 'the echoed data differs from what was sent');
      assert.deepEqual(problems, []);
    });
  }
});
