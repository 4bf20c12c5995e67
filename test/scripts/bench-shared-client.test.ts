// One client process can drive several servers (bench/peers/mcp-driver.mjs's "servers", bench/lib/mcp.ts's
// withSharedClient), the http-server suite's way of keeping the client's luck out of its ratios: each
// command, the client's own commands too, runs against the server it targets, and a server it cannot
// target is an error, not another's run. The one-server form keeps working as before: the server suite's
// cold starts name a whole server command in their `server` field, which the target index once took.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CallRun, type ColdRun, withSharedClient } from '../../bench/lib/mcp.js';
import { PEERS_DIR, withPeers } from '../../bench/lib/peer.js';

const rawHttpServer = [process.execPath, `${PEERS_DIR}raw-http-server.mjs`, '{"answer":"json"}'];
const rawMcpServer = [process.execPath, `${PEERS_DIR}raw-mcp-server.mjs`];
// An HTTP "server" that answers every POST with the request's id and a text that is not the one sent, names
// no heap URL, and lives until its stdin ends, as the bench's servers do: a call that reaches it fails the
// client's check of the echo.
const wrongEcho = [
  process.execPath,
  '-e',
  `const server = require('node:http').createServer((request, response) => {
     let body = '';
     request.on('data', (chunk) => (body += chunk)).on('end', () => {
       const { id } = JSON.parse(body);
       response.setHeader('Content-Type', 'application/json');
       response.end(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'wrong' }] } }));
     });
   });
   server.listen(0, '127.0.0.1', () => {
     process.stdout.write(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port + '/mcp' }) + '\\n');
   });
   process.stdin.on('end', () => process.exit(0)).resume();`,
];

describe('bench shared client', () => {
  it('runs each command against the server it targets', async () => {
    await withSharedClient(
      'raw-http-client.mjs',
      [rawHttpServer, wrongEcho],
      { stateless: true },
      async ([right, wrong]) => {
        const run = await right!.command<CallRun>({ op: 'serial', calls: 3 });
        assert.ok(run.ms > 0);
        await assert.rejects(wrong!.command({ op: 'serial', calls: 1 }), /wrong tool result/);
        // The client's own command (the heap an idle session takes) reaches the server targeted too.
        const idle = await right!.command<{ bytesPerSession: number }>({
          op: 'idle',
          sessions: 4,
          settleMs: 0,
        });
        assert.equal(typeof idle.bytesPerSession, 'number');
        await assert.rejects(wrong!.command({ op: 'idle', sessions: 1 }), /names no heapUrl/);
        // Commands sent at once run one after the other, each with its own answer.
        const [a, b] = await Promise.all([
          right!.command<CallRun>({ op: 'pipelined', calls: 8, window: 4 }),
          wrong!.command({ op: 'serial', calls: 1 }).then(
            () => 'answered',
            (error: Error) => error.message,
          ),
        ]);
        assert.ok(a.ms > 0);
        assert.match(String(b), /wrong tool result/);
      },
    );
  });

  it('refuses a target it was not given', async () => {
    await withPeers(
      [{ script: 'raw-http-client.mjs', config: { stateless: true, servers: [rawHttpServer] } }],
      async ([peer]) => {
        for (const target of [1, -1, '0', 0.5]) {
          await assert.rejects(
            peer!.command({ op: 'serial', calls: 1, target }),
            /no server .* to target: this client has 1/,
            `target ${JSON.stringify(target)}`,
          );
        }
        await peer!.command({ op: 'serial', calls: 1, target: 0 });
      },
    );
  });

  it('keeps the one-server form, whose cold starts name a server command', async () => {
    await withPeers([{ script: 'raw-mcp-client.mjs', config: { server: rawMcpServer } }], async ([peer]) => {
      await peer!.command<CallRun>({ op: 'serial', calls: 3 });
      const cold = await peer!.command<ColdRun>({ op: 'cold', server: rawMcpServer });
      assert.ok(cold.ms > 0);
    });
  });
});
