// The official SDK's Client for the client benchmark: StdioClientTransport to the server command, default
// options unless argv[2] has {"maxBufferSize": BYTES} (the read buffer's limit, 10 MiB by default).
// When the transport reports an error (its read buffer overflowing, say), the request in flight fails at
// once instead of waiting for its 60 s timeout, and the driver starts over with a fresh server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { driveMcp } from './mcp-driver.mjs';

const { maxBufferSize } = JSON.parse(process.argv[2] ?? '{}');

await driveMcp(async (command, args) => {
  const transport = new StdioClientTransport({ command, args, stderr: 'inherit', maxBufferSize });
  const client = new Client({ name: 'bench-sdk-client', version: '1.0.0' });
  let failWith;
  client.onerror = (error) => failWith?.(error);
  await client.connect(transport);
  const failOnError = (promise) =>
    new Promise((resolve, reject) => {
      failWith = reject;
      promise.then(resolve, reject);
    }).finally(() => {
      failWith = undefined;
    });
  return {
    pid: transport.pid,
    echo: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    read: (uri) => failOnError(client.readResource({ uri })),
    close: () => client.close(),
  };
});
