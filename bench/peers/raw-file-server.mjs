// The big-read benchmark's lower bound: a hand-written stdio MCP server that answers initialize and
// resources/read of a file:// URI by reading the file whole as UTF-8 and writing JSON.stringify of the
// answer, with no validation: what a server that builds its answer as one string does at the least.
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';

createInterface({ input: process.stdin }).on('line', async (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  let result = {};
  if (message.method === 'initialize') {
    result = {
      protocolVersion: message.params.protocolVersion,
      capabilities: { resources: {} },
      serverInfo: { name: 'raw-file', version: '1' },
    };
  } else if (message.method === 'resources/read') {
    const { uri } = message.params;
    result = { contents: [{ uri, mimeType: 'text/plain', text: await readFile(new URL(uri), 'utf8') }] };
  }
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n`);
});
