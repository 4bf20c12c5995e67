// The official SDK's stdio client at transport level for the round-trip benchmark: StdioClientTransport,
// with responses matched to requests by id here (no Protocol / Client class on top).
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { drive } from './driver.mjs';

await drive(
  async (serverArgs) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: serverArgs,
      stderr: 'inherit',
    });
    const pending = new Map();
    let nextId = 1;
    transport.onmessage = (message) => {
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      if (message.error) entry.reject(new Error(message.error.message));
      else entry.resolve(message.result);
    };
    transport.onerror = (error) => console.error(`sdk client: ${error.message}`);
    await transport.start();
    return {
      call: (method, params) =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject });
          transport.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
        }),
      close: () => transport.close(),
    };
  },
  fileURLToPath(new URL('./sdk-server.mjs', import.meta.url)),
);
