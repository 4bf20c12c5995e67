// The unit suite runs in process: scripts/run-tests.mjs loads test/support/in-process.mjs into each of its
// files, so a unit test that starts a process or opens a socket fails, with a message that says where the
// file belongs. (This file is itself in the unit suite; under a plain `node --test` nothing is refused.)

import assert from 'node:assert/strict';
import { execFileSync, fork, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import net from 'node:net';
import { describe, it } from 'node:test';

const WHERE =
  /in the unit suite, which runs in process: list this test file under "e2e" in test\/suites\.json$/;

describe('the unit suite', () => {
  it('starts no process', () => {
    assert.throws(() => spawn(process.execPath, ['--version']), WHERE);
    assert.throws(() => execFileSync(process.execPath, ['--version']), WHERE);
    assert.throws(() => fork('-e'), WHERE);
  });

  it('listens on no socket and connects none (so fetch() reaches nothing either)', () => {
    const server = createServer();
    assert.throws(() => server.listen(0, '127.0.0.1'), /^Error: listening on a socket in the unit suite/);
    assert.throws(() => net.connect(80, '127.0.0.1'), /^Error: connecting a socket in the unit suite/);
  });
});
