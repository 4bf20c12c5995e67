// The hand-written Streamable HTTP server of the HTTP client benchmark: the initialize handshake (with a
// session id), an `echo` tool, 202 for notifications, 405 for the GET stream, and every answer as JSON or
// as a one-event SSE stream (argv[2]: {"answer": "json" | "sse"}). Nothing is validated: what is measured
// is the client. Prints {"url": ...} on stdout once it listens on 127.0.0.1.
import { createServer } from 'node:http';

const { answer: mode = 'json' } = JSON.parse(process.argv[2] ?? '{}');
const SESSION = 'bench-session';

function result(method, params) {
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'bench-raw-http', version: '1.0.0' },
      };
    case 'tools/call':
      return { content: [{ type: 'text', text: params.arguments.text }] };
    case 'tools/list':
      return { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
    case 'ping':
      return {};
    default:
      return undefined;
  }
}

const server = createServer((req, res) => {
  if (req.method === 'GET') return void res.writeHead(405, { Allow: 'POST, DELETE' }).end();
  if (req.method === 'DELETE') return void res.writeHead(200).end();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (message.id === undefined) return void res.writeHead(202).end();
    const value = result(message.method, message.params);
    const body = JSON.stringify(
      value === undefined
        ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
        : { jsonrpc: '2.0', id: message.id, result: value },
    );
    const headers = { 'Mcp-Session-Id': SESSION };
    if (mode === 'sse') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream' });
      res.end(`event: message\ndata: ${body}\n\n`);
    } else {
      res.writeHead(200, { ...headers, 'Content-Type': 'application/json' });
      res.end(body);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/mcp` })}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
