// The hand-written MCP server, the lower bound of the server benchmark (and the one server every client
// of the client and trace benchmarks calls): the initialize handshake, an `echo` tool and the text
// resources bench://text/BYTES, answered with no validation at all. Each line is parsed, and the answers to
// one chunk of input are written with one write. It exits when stdin ends. With {"zod": true} in argv[2]
// it first imports zod and builds its tool's input schema with it (unused): the lower bound of a server
// whose author chose zod, which pays for zod's import once (the cold start of the server suite).
import { resourceText } from './mcp-text.mjs';
import { lineReader } from './raw-lines.mjs';

const { zod = false } = JSON.parse(process.argv[2] ?? '{}');
if (zod) await import('zod').then(({ z }) => z.object({ text: z.string() }));

const TEXT_URI = /^bench:\/\/text\/(\d+)$/;
const info = { name: 'bench-raw', version: '1.0.0' };

function answer(method, params) {
  switch (method) {
    case 'initialize':
      return {
        result: {
          protocolVersion: params.protocolVersion,
          capabilities: { tools: {}, resources: {} },
          serverInfo: info,
        },
      };
    case 'ping':
      return { result: {} };
    case 'tools/list':
      return {
        result: {
          tools: [
            {
              name: 'echo',
              inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
            },
          ],
        },
      };
    case 'tools/call':
      return { result: { content: [{ type: 'text', text: params.arguments.text }] } };
    case 'resources/read': {
      const match = TEXT_URI.exec(params.uri);
      if (!match)
        return { error: { code: -32002, message: 'Resource not found', data: { uri: params.uri } } };
      return {
        result: {
          contents: [{ uri: params.uri, mimeType: 'text/plain', text: resourceText(Number(match[1])) }],
        },
      };
    }
    default:
      return { error: { code: -32601, message: `Method not found: ${method}` } };
  }
}

let out = [];
const read = lineReader((line) => {
  const message = JSON.parse(line);
  if (message.id === undefined || message.method === undefined) return;
  out.push(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer(message.method, message.params) }));
});
process.stdin.on('data', (chunk) => {
  read(chunk);
  if (out.length === 0) return;
  const data = `${out.join('\n')}\n`;
  out = [];
  process.stdout.write(data);
});
