// mcpwire's McpClient over HttpClientTransport for the HTTP client benchmark, with default options.
import { HttpClientTransport, McpClient } from '../../dist/index.js';
import { startHttpServer } from './http-server-process.mjs';
import { driveMcp } from './mcp-driver.mjs';

await driveMcp(async (command, args) => {
  const server = await startHttpServer(command, args);
  const client = new McpClient({ name: 'bench-mcpwire-http-client', version: '1.0.0' });
  await client.connect(new HttpClientTransport(server.url));
  return {
    pid: server.pid,
    echo: (text) => client.callTool('echo', { text }),
    read: () => Promise.reject(new Error('not measured over HTTP')),
    close: async () => {
      await client.close();
      await server.stop();
    },
  };
});
