// The doctor's Peer and runner against the fixture servers in test/fixtures/broken: what a check sees of a
// server's output, and what a failure says about it.

import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { allChecks } from '../../src/doctor/checks/index.js';
import { PeerTimeout } from '../../src/doctor/peer.js';
import { runChecks, selectChecks } from '../../src/doctor/runner.js';
import { StdioPeer as Peer } from '../../src/doctor/stdio-peer.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const server = (name: string) => ({
  command: process.execPath,
  args: [path.join(ROOT, 'test', 'fixtures', 'broken', `${name}.mjs`)],
});

/** Runs `body` against a fresh peer of the fixture, and always disposes of it. */
async function withPeer(name: string, timeoutMs: number, body: (peer: Peer) => Promise<void>): Promise<void> {
  const peer = new Peer(server(name), timeoutMs);
  try {
    await body(peer);
  } finally {
    await peer.dispose();
  }
}

describe('doctor Peer', () => {
  it('keeps every line the server writes, parsed or not', async () => {
    await withPeer('prints-on-stdout', 5000, async (peer) => {
      await peer.request('ping', undefined, 'p');
      await peer.waitFor(() => (peer.frames.length >= 2 ? true : undefined), 'the print after the response');
      assert.deepEqual(
        peer.frames.map((f) => [f.json, f.text]),
        [
          [true, '{"jsonrpc":"2.0","id":"p","result":{}}'],
          [false, 'debug: wrote a message'],
        ],
      );
    });
  });

  it('matches responses by the exact id: "1000" does not answer 1000', async () => {
    await withPeer('string-ids', 5000, async (peer) => {
      peer.send({ jsonrpc: '2.0', id: 1000, method: 'ping' });
      await peer.waitFor(() => peer.frames[0], 'the response');
      assert.deepEqual(peer.responsesTo(1000), []);
      assert.equal(peer.responsesTo('1000').length, 1);
    });
  });

  // Each server answers something first, with a long limit, so that its start does not count against the
  // short limit under test.
  it('a timeout says what came instead, when something did', async () => {
    await withPeer('string-ids', 10_000, async (peer) => {
      await peer.request('ping', undefined, 'warm-up');
      peer.send({ jsonrpc: '2.0', id: 1000, method: 'ping' });
      await assert.rejects(
        peer.waitFor(() => peer.responsesTo(1000)[0], 'a response to id 1000', 1000),
        (error: Error) =>
          error instanceof PeerTimeout &&
          /^waited 1000 ms for a response to id 1000; what came instead \(1 line\(s\)\): \{"jsonrpc":"2\.0","id":"1000","result":\{\}\}$/.test(
            error.message,
          ),
      );
    });
    await withPeer('pretty-printed', 10_000, async (peer) => {
      peer.send({ jsonrpc: '2.0', id: 'warm-up', method: 'ping' });
      await peer.waitFor(() => (peer.frames.length === 5 ? true : undefined), 'the five lines of a response');
      peer.send({ jsonrpc: '2.0', id: 'x', method: 'ping' });
      await assert.rejects(
        peer.waitFor(() => peer.responsesTo('x')[0], 'a response to "x"', 1000),
        /what came instead \(5 line\(s\)\): \(not JSON\) \{ \| \(not JSON\) {3}"jsonrpc": "2\.0", \| \(not JSON\) {3}"id": "x", \| …$/,
      );
    });
  });

  it('a timeout says nothing came when nothing did', async () => {
    await withPeer('ignores-parse-errors', 10_000, async (peer) => {
      await peer.initialize();
      peer.write('not json\n');
      await assert.rejects(
        peer.waitFor(() => peer.responsesTo(null)[0], 'a -32700 response', 300),
        /^PeerTimeout: waited 300 ms for a -32700 response; nothing came$/,
      );
    });
  });

  it('a wait ends as soon as the server exits, with its exit code', async () => {
    await withPeer('dies-on-big-messages', 30_000, async (peer) => {
      await peer.initialize();
      peer.send({ jsonrpc: '2.0', id: 'big', method: 'ping', params: { pad: 'x'.repeat(2 * 1024 * 1024) } });
      await assert.rejects(
        peer.response('big'),
        /the server exited before a response to id "big" \(exit code 1\)/,
      );
      assert.deepEqual(peer.exit, { code: 1, signal: null });
      assert.match(peer.stderr, /dies-on-big-messages: serving on stdio/);
    });
  });

  it('dispose ends a server that does not exit when its stdin closes', async () => {
    const peer = new Peer(server('hangs-on-stdin-end'), 5000);
    await peer.initialize();
    await peer.dispose();
    assert.deepEqual(peer.exit, { code: null, signal: 'SIGKILL' });
  });
});

describe('doctor runner', () => {
  it('selectChecks names the unknown and the valid checks', () => {
    assert.throws(
      () => selectChecks(['ping', 'nope', 'neither']),
      new Error(
        `no check named nope, neither; checks over stdio: ${selectChecks([])
          .map((c) => c.id)
          .join(', ')}`,
      ),
    );
    assert.deepEqual(
      selectChecks(['crlf', 'ping']).map((c) => c.id),
      ['ping', 'crlf'],
      'in the order they are reported',
    );
    assert.deepEqual(
      selectChecks([]),
      allChecks.filter((c) => c.on !== 'http'),
    );
    assert.deepEqual(
      selectChecks([], 'http'),
      allChecks.filter((c) => c.on !== 'stdio'),
    );
    assert.throws(
      () => selectChecks(['crlf'], 'http'),
      new Error('crlf does not apply to a server over HTTP'),
    );
  });

  it('reports a failure with its rule and hint, a pass without a hint', async () => {
    const results = await runChecks(server('prints-on-stdout'), {
      only: ['stdout-purity', 'handshake'],
      timeoutMs: 5000,
    });
    assert.deepEqual(
      results.map((r) => r.id),
      ['handshake', 'stdout-purity'],
    );
    const [handshake, purity] = results;
    assert.equal(handshake?.id, 'handshake');
    assert.equal(handshake?.status, 'pass');
    assert.equal(handshake?.hint, undefined);
    assert.equal(purity?.id, 'stdout-purity');
    assert.equal(purity?.status, 'fail');
    assert.equal(purity?.hint, 'Send logs and prints to stderr (console.error), never console.log.');
    assert.equal(purity?.rule.source, 'MCP 2025-11-25 basic/transports#stdio');
    assert.ok(typeof purity?.durationMs === 'number' && purity.durationMs >= 0);
  });

  it('adds the stderr of a server that exited to a failure', async () => {
    const [result] = await runChecks(server('dies-on-big-messages'), {
      only: ['large-request'],
      timeoutMs: 5000,
    });
    assert.equal(result?.status, 'fail');
    assert.deepEqual(result?.details, [
      'the server exited before a response to a 32 MiB request (exit code 1)',
      'server stderr: dies-on-big-messages: serving on stdio',
    ]);
  });
});
