// The server of the server benchmark built with the official SDK's McpServer: the same `echo` tool (zod
// input schema) and text resources as mcpwire-mcp-server.mjs, on the SDK's StdioServerTransport.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { resourceText, resourceUri } from './mcp-text.mjs';

const { sizes = [] } = JSON.parse(process.argv[2] ?? '{}');
const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
  content: [{ type: 'text', text }],
}));
for (const bytes of sizes) {
  const uri = resourceUri(bytes);
  server.registerResource(`text-${bytes}`, uri, { mimeType: 'text/plain' }, async () => ({
    contents: [{ uri, mimeType: 'text/plain', text: resourceText(bytes) }],
  }));
}
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
