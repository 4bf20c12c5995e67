// The big-read benchmark's official SDK server: McpServer with one resource, the file argv[2] names
// ({"file": PATH}), read whole as UTF-8 on each read, over StdioServerTransport.
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const { file } = JSON.parse(process.argv[2] ?? '{}');
const uri = pathToFileURL(file).href;
const server = new McpServer({ name: 'bench-sdk-file', version: '1.0.0' });
server.registerResource('big', uri, { mimeType: 'text/plain' }, async () => ({
  contents: [{ uri, mimeType: 'text/plain', text: await readFile(file, 'utf8') }],
}));
await server.connect(new StdioServerTransport());
