// One client process can drive several servers (bench/peers/mcp-driver.mjs's "servers", bench/lib/mcp.ts's
// withSharedClient), the http-server suite's way of keeping the client's luck out of its ratios: each
// command runs against the server it names, and a server it cannot name is an error, not another's run.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CallRun, withSharedClient } from '../../bench/lib/mcp.js';
import { PEERS_DIR, withPeers } from '../../bench/lib/peer.js';

const rawServer = [process.execPath, `${PEERS_DIR}raw-http-server.mjs`, '{"answer":"sse"}'];
// A "server" that names a URL where nothing listens (a port it took and let go), and lives until its stdin
// ends, as the bench's servers do: every call to it is refused.
const refusing = [
  process.execPath,
  '-e',
  `const s = require('node:net').createServer().listen(0, '127.0.0.1', () => {
     const url = 'http://127.0.0.1:' + s.address().port + '/mcp';
     s.close(() => process.stdout.write(JSON.stringify({ url }) + '\\n'));
   });
   process.stdin.on('end', () => process.exit(0)).resume();`,
];

describe('bench shared client', () => {
  it('runs each command against the server it names', async () => {
    await withSharedClient(
      'raw-http-client.mjs',
      [rawServer, refusing],
      { stateless: true },
      async (servers) => {
        const run = await servers[0]!.command<CallRun>({ op: 'serial', calls: 3 });
        assert.ok(run.ms > 0);
        assert.ok(run.serverCpuMs === undefined || run.serverCpuMs >= 0);
        await assert.rejects(servers[1]!.command({ op: 'serial', calls: 1 }), /ECONNREFUSED/);
        // The first server is still there after the second one's failure.
        await servers[0]!.command({ op: 'pipelined', calls: 8, window: 4 });
      },
    );
  });

  it('refuses a server index it was not given', async () => {
    await withPeers(
      [{ script: 'raw-http-client.mjs', config: { stateless: true, servers: [rawServer] } }],
      async ([peer]) => {
        await assert.rejects(
          peer!.command({ op: 'serial', calls: 1, server: 1 }),
          /no server 1: this client has 1/,
        );
        await peer!.command({ op: 'serial', calls: 1, server: 0 });
      },
    );
  });
});
