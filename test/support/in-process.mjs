// Loaded (--import) into every file of the unit suite by scripts/run-tests.mjs: a unit test runs in its
// own process and touches nothing outside it, so starting a process, listening on a socket or connecting
// one throws, naming where the file belongs instead. That keeps the unit suite what test/suites.json says
// it is, and fast. Only in the test runner's child processes (NODE_TEST_CONTEXT): the runner itself
// spawns them.

import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

if (process.env.NODE_TEST_CONTEXT) {
  const refuse = (what) =>
    function refused() {
      throw new Error(
        `${what} in the unit suite, which runs in process: list this test file under "e2e" in test/suites.json`,
      );
    };
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    childProcess[name] = refuse(`child_process.${name}()`);
  }
  // http and https servers are net servers; fetch() connects a net socket.
  net.Server.prototype.listen = refuse('listening on a socket');
  net.Socket.prototype.connect = refuse('connecting a socket');
  dgram.Socket.prototype.bind = refuse('binding a UDP socket');
  // `import { spawn } from 'node:child_process'` sees the replacements too.
  syncBuiltinESMExports();
}
