// The big-read benchmark's mcpwire McpServer: one resource, the file argv[2] names ({"file": PATH}), its
// text written into the answer as the file is read (streamedFile), over stdio.
import { pathToFileURL } from 'node:url';
import { McpServer, streamedFile } from '../../dist/server.js';

const { file } = JSON.parse(process.argv[2] ?? '{}');
const uri = pathToFileURL(file).href;
const server = new McpServer({ name: 'bench-mcpwire-file', version: '1.0.0' });
server.resource({ uri, name: 'big', mimeType: 'text/plain' }, async () => [
  { uri, mimeType: 'text/plain', text: await streamedFile(file, 'text') },
]);
server.serveStdio();
