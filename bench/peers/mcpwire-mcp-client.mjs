// mcpwire's McpClient for the client benchmark: a ChildProcessTransport to the server command, with the
// client's default options (era 'auto', a 60 s timeout per request, the 256 MiB message size limit).
import { ChildProcessTransport, McpClient } from '../../dist/index.js';
import { driveMcp } from './mcp-driver.mjs';

await driveMcp(async (command, args) => {
  const transport = new ChildProcessTransport({ command, args, stderr: 'inherit' });
  const client = new McpClient({ name: 'bench-mcpwire-client', version: '1.0.0' });
  await client.connect(transport);
  return {
    pid: transport.pid,
    echo: (text) => client.callTool('echo', { text }),
    read: (uri) => client.readResource(uri),
    close: () => client.close(),
  };
});
