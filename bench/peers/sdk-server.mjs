// The official SDK's stdio server at transport level for the round-trip benchmark: every request that
// arrives in onmessage is sent back as the result of its response. No Protocol / Server class on top.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serverStats } from './driver.mjs';

const transport = new StdioServerTransport();
transport.onmessage = (message) => {
  if (message.id === undefined || message.method === undefined) return;
  const result = message.method === 'bench/stats' ? serverStats() : message.params;
  void transport.send({ jsonrpc: '2.0', id: message.id, result });
};
transport.onerror = (error) => console.error(`sdk server: ${error.message}`);
process.stdin.on('end', () => process.exit(0));
await transport.start();
