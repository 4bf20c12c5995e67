// mcpwire's client for the round-trip benchmark: a Connection on a ChildProcessTransport, with the
// connection's default options (a 60 s timeout per request included).
import { fileURLToPath } from 'node:url';
import { ChildProcessTransport, Connection } from '../../dist/index.js';
import { drive } from './driver.mjs';

await drive(
  async (serverArgs) => {
    const connection = new Connection(
      new ChildProcessTransport({ command: process.execPath, args: serverArgs, stderr: 'inherit' }),
    );
    connection.start();
    return {
      call: (method, params) => connection.request(method, params),
      close: () => connection.close(),
    };
  },
  fileURLToPath(new URL('./mcpwire-server.mjs', import.meta.url)),
);
