// The official SDK's Client over its StreamableHTTPClientTransport for the HTTP client benchmark, with
// default options.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpServer } from './http-server-process.mjs';
import { driveMcp } from './mcp-driver.mjs';

await driveMcp(async (command, args) => {
  const server = await startHttpServer(command, args);
  const client = new Client({ name: 'bench-sdk-http-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return {
    pid: server.pid,
    echo: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    read: () => Promise.reject(new Error('not measured over HTTP')),
    close: async () => {
      await client.close();
      await server.stop();
    },
  };
});
