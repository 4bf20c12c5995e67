// A server process that dies in the middle of a call: every pending call rejects at once (the requests'
// own timeouts are an hour) with an error that names the exit code or signal and quotes the end of the
// server's stderr; later calls fail the same way, and onClose is told.

import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { type CloseReason, ConnectionClosedError } from '../../src/jsonrpc/errors.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';
import { CLIENT_INFO, rejection } from '../support/fake-mcp-server.js';

const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'client', 'crash-mid-call.mjs');
const HOUR = 3_600_000;
/** Far below any request timeout: the rejection comes from the exit, not from a timer. */
const PROMPTLY_MS = 2000;

async function serverThatDies(how: 'exit' | 'signal', what: string) {
  const transport = new ChildProcessTransport({ command: process.execPath, args: [FIXTURE, how, what] });
  const client = new McpClient({ ...CLIENT_INFO, era: 'handshake', timeout: HOUR, maxTotalTimeout: HOUR });
  await client.connect(transport);
  const closed = new Promise<CloseReason>((resolve) => client.onClose(resolve));
  return { client, transport, closed };
}

const CASES = [
  { how: 'exit', what: '7', says: /server exited with code 7/, exitCode: 7, signal: null },
  { how: 'signal', what: 'SIGKILL', says: /server was killed by SIGKILL/, exitCode: null, signal: 'SIGKILL' },
] as const;

describe('McpClient and a server that crashes mid-call', () => {
  for (const c of CASES) {
    it(`rejects every pending call at once when the server ${c.how === 'exit' ? `exits with ${c.what}` : `is killed by ${c.what}`}`, {
      timeout: 20_000,
    }, async () => {
      const { client, transport, closed } = await serverThatDies(c.how, c.what);
      assert.deepEqual(await client.ping(), {}, 'the server works until the crash');
      const started = performance.now();
      const pending = [
        client.callTool('slow', { n: 1 }),
        client.readResource('memo://never-answered'),
        client.callTool('crash'),
      ];
      const errors = await Promise.all(pending.map((p) => rejection(p)));
      const elapsed = performance.now() - started;
      assert.ok(elapsed < PROMPTLY_MS, `rejected after ${Math.round(elapsed)} ms`);

      assert.deepEqual(
        errors.map((e) => (e as ConnectionClosedError).method),
        ['tools/call', 'resources/read', 'tools/call'],
      );
      for (const error of errors) {
        assert.ok(error instanceof ConnectionClosedError, String(error));
        assert.match(error.message, c.says);
        assert.match(error.message, /fatal: out of cheese/, 'the message quotes the stderr tail');
        assert.equal(error.reason.exitCode, c.exitCode);
        assert.equal(error.reason.signal, c.signal);
        assert.equal(error.reason.stderrTail, 'handling the crash tool\nfatal: out of cheese');
      }

      const reason = await closed;
      assert.match(reason.message, c.says);
      assert.equal(client.closed, reason);
      // Calls after the crash fail at once with the same explanation.
      const later = await rejection(client.listTools());
      assert.ok(later instanceof ConnectionClosedError);
      assert.match(later.message, c.says);
      assert.equal(transport.stderr, 'handling the crash tool\nfatal: out of cheese\n');
      await client.close();
    });
  }
});
