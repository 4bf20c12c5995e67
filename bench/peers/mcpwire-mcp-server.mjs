// The server of the server benchmark built with mcpwire's McpServer: an `echo` tool and one text resource
// per size in argv[2] ({"sizes":[BYTES...]}), served over stdio. The tool's input schema is zod's, as in
// the SDK's server, unless argv[2] has {"schema":"json"}: then it is a plain JSON Schema and zod is never
// loaded (mcpwire takes either).
import { McpServer } from '../../dist/server.js';
import { resourceText, resourceUri } from './mcp-text.mjs';

const { sizes = [], schema = 'zod' } = JSON.parse(process.argv[2] ?? '{}');
const inputSchema =
  schema === 'json'
    ? { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }
    : await import('zod').then(({ z }) => z.object({ text: z.string() }));
const server = new McpServer({ name: 'bench-mcpwire', version: '1.0.0' });
server.tool({ name: 'echo', inputSchema }, ({ text }) => ({ content: [{ type: 'text', text }] }));
for (const bytes of sizes) {
  const uri = resourceUri(bytes);
  server.resource({ uri, name: `text-${bytes}`, mimeType: 'text/plain' }, () => [
    { uri, mimeType: 'text/plain', text: resourceText(bytes) },
  ]);
}
server.serveStdio();
