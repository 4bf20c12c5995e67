// The hand-written Streamable HTTP server of the HTTP client benchmark: the initialize handshake (with a
// session id), an `echo` tool, 202 for notifications, 405 for the GET stream, and every answer as JSON or
// as a one-event SSE stream (argv[2]: {"answer": "json" | "sse"}). Nothing is validated: what is measured
// is the client. Prints {"url": ...} on stdout once it listens on 127.0.0.1. It is also the lower bound of
// the HTTP server benchmark: each initialize gets a session id of its own, kept in a set (the least a
// session can cost), a 2026-07-28 request (its _meta names the version) gets resultType, and GET /heap
// answers the heap in use after a full collection (with --expose-gc). With {"serverInfo": true}, a 2026-07-28
// result also carries the server's name and version in _meta, as the specification says a server SHOULD
// (the http-instructions suite counts what that costs).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const { answer: mode = 'json', serverInfo = false } = JSON.parse(process.argv[2] ?? '{}');
const SERVER_INFO = { name: 'bench-raw-http', version: '1.0.0' };
const STATELESS_META = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
const sessions = new Set();

function result(method, params) {
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: SERVER_INFO,
      };
    case 'tools/call': {
      const content = [{ type: 'text', text: params.arguments.text }];
      if (!params._meta?.['io.modelcontextprotocol/protocolVersion']) return { content };
      return serverInfo
        ? { resultType: 'complete', content, _meta: STATELESS_META }
        : { resultType: 'complete', content };
    }
    case 'tools/list':
      return { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
    case 'ping':
      return {};
    default:
      return undefined;
  }
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/heap') {
    globalThis.gc?.();
    return void res.end(JSON.stringify({ heapUsed: process.memoryUsage().heapUsed }));
  }
  if (req.method === 'GET') return void res.writeHead(405, { Allow: 'POST, DELETE' }).end();
  if (req.method === 'DELETE') {
    sessions.delete(req.headers['mcp-session-id']);
    return void res.writeHead(200).end();
  }
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
    let session = req.headers['mcp-session-id'];
    if (message.method === 'initialize') {
      session = randomUUID();
      sessions.add(session);
    }
    const headers = session ? { 'Mcp-Session-Id': session } : {};
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
  const base = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(`${JSON.stringify({ url: `${base}/mcp`, heapUrl: `${base}/heap` })}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
