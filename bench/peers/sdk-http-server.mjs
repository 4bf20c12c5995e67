// The HTTP server benchmark's official SDK server: its McpServer with an `echo` tool (a zod input, as the
// SDK's API asks) on its StreamableHTTPServerTransport, one server and transport per session as the SDK's
// examples do, in a node:http server on 127.0.0.1. argv[2]'s {"answer": "json"} sets enableJsonResponse;
// SSE streams otherwise (its default). Prints {"url": ...} once it listens; GET /heap as in
// mcpwire-http-server.mjs.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const { answer = 'sse' } = JSON.parse(process.argv[2] ?? '{}');
const transports = new Map();

async function openSession() {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: answer === 'json',
    onsessioninitialized: (id) => transports.set(id, transport),
  });
  transport.onclose = () => transports.delete(transport.sessionId);
  const server = new McpServer({ name: 'bench-sdk-http', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  await server.connect(transport);
  return transport;
}

const server = http.createServer(async (req, res) => {
  if (req.url === '/heap') {
    globalThis.gc?.();
    return void res.end(JSON.stringify({ heapUsed: process.memoryUsage().heapUsed }));
  }
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? transports.get(id) : undefined;
  if (!transport) {
    if (req.method !== 'POST' || !isInitializeRequest(body)) return void res.writeHead(400).end();
    transport = await openSession();
  }
  await transport.handleRequest(req, res, body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(`${JSON.stringify({ url: `${base}/mcp`, heapUrl: `${base}/heap` })}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
