// The HTTP server benchmark's mcpwire server: McpServer with an `echo` tool (a JSON Schema input) served by
// serveHttp() on 127.0.0.1 with default options, except argv[2]'s {"answer": "json"} (jsonResponse: every
// POST answered with one JSON body; "sse", the default, answers with SSE streams) and {"redis": URL} (one
// instance of a fleet on that Redis). Prints {"url": ...} once
// it listens. GET /heap (not MCP) answers the heap in use after a full collection, for the idle-session
// row: run it with --expose-gc.
import http from 'node:http';
import { McpServer } from '../../dist/server.js';

const { answer = 'sse', redis } = JSON.parse(process.argv[2] ?? '{}');
const server = new McpServer({ name: 'bench-mcpwire-http', version: '1.0.0' });
server.tool(
  {
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  ({ text }) => ({ content: [{ type: 'text', text }] }),
);
const listener = await server.serveHttp({
  port: 0,
  jsonResponse: answer === 'json',
  ...(redis ? { redis } : {}),
});
const heap = http.createServer((_request, res) => {
  globalThis.gc?.();
  res.end(JSON.stringify({ heapUsed: process.memoryUsage().heapUsed }));
});
heap.listen(0, '127.0.0.1', () => {
  process.stdout.write(
    `${JSON.stringify({ url: listener.url, heapUrl: `http://127.0.0.1:${heap.address().port}/heap` })}\n`,
  );
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
