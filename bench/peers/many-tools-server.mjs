// A stdio server with argv[2] tools (tool_0 … tool_N-1), each with a small object schema: what the
// inspector page's benchmark lists.
import { McpServer } from '../../dist/server.js';

const count = Number(process.argv[2] ?? 1000);
const server = new McpServer({ name: 'bench-many-tools', version: '1.0.0' });
for (let i = 0; i < count; i++) {
  server.tool(
    {
      name: `tool_${i}`,
      description: `Tool number ${i}, which echoes its text`,
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1, default: 1 } },
        required: ['text'],
      },
    },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
}
server.serveStdio();
