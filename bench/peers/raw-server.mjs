// The hand-written stdio server, the lower bound of the round-trip benchmark: parse each line, answer each
// request with its params, and write all the answers to one chunk of input with one write.
import { serverStats } from './driver.mjs';
import { lineReader } from './raw-lines.mjs';

let out = [];
const read = lineReader((line) => {
  const message = JSON.parse(line);
  if (message.id === undefined || message.method === undefined) return;
  const result = message.method === 'bench/stats' ? serverStats() : message.params;
  out.push(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
});
process.stdin.on('data', (chunk) => {
  read(chunk);
  if (out.length === 0) return;
  const data = `${out.join('\n')}\n`;
  out = [];
  process.stdout.write(data);
});
