// The hand-written stdio client, the lower bound of the round-trip benchmark: requests queued in one turn
// are written with one write (flushed in a microtask); responses are matched to requests by id.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { drive } from './driver.mjs';
import { lineReader } from './raw-lines.mjs';

await drive(
  async (serverArgs) => {
    const child = spawn(process.execPath, serverArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
    const pending = new Map();
    let nextId = 1;
    let queue = [];
    const flush = () => {
      const data = `${queue.join('\n')}\n`;
      queue = [];
      child.stdin.write(data);
    };
    const read = lineReader((line) => {
      const message = JSON.parse(line);
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      if (message.error) entry.reject(new Error(message.error.message));
      else entry.resolve(message.result);
    });
    child.stdout.on('data', read);
    return {
      call: (method, params) =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject });
          if (queue.length === 0) queueMicrotask(flush);
          queue.push(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
        }),
      close: async () => {
        child.stdin.end();
        if (child.exitCode === null) await once(child, 'exit');
      },
    };
  },
  fileURLToPath(new URL('./raw-server.mjs', import.meta.url)),
);
