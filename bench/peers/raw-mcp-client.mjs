// The hand-written MCP client: spawns the server command, does the initialize handshake, then speaks raw
// newline-delimited JSON-RPC over the child's pipes, with requests queued in one turn written with one
// write and responses matched by id. It is the one client of the server and trace benchmarks and the lower
// bound (the hand-written reader) of the client benchmark. Besides mcp-driver.mjs's commands:
//   { op: 'cold', server?, env? }
//                             spawn a fresh server (the configured command, or `server`: another one;
//                             `env` added to this process's), time spawn -> initialize response, stop it
//                             -> { ms, peakRssKiB } (the fresh server's peak RSS right after it answered)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { driveMcp, processPeakRssKiB } from './mcp-driver.mjs';
import { lineReader } from './raw-lines.mjs';

const PROTOCOL_VERSION = '2025-11-25';

function start(command, args, env) {
  const child = spawn(command, args, {
    stdio: ['pipe', 'pipe', 'inherit'],
    ...(env && { env: { ...process.env, ...env } }),
  });
  const pending = new Map();
  let nextId = 1;
  let queue = [];
  let failure;
  const flush = () => {
    const data = `${queue.join('\n')}\n`;
    queue = [];
    child.stdin.write(data);
  };
  const fail = (error) => {
    failure = error;
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  child.on('error', fail);
  child.on('exit', (code, signal) => fail(new Error(`the server exited (${signal ?? `code ${code}`})`)));
  child.stdin.on('error', () => {});
  child.stdout.on(
    'data',
    lineReader((line) => {
      const message = JSON.parse(line);
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      if (message.error) entry.reject(new Error(`${message.error.code}: ${message.error.message}`));
      else entry.resolve(message.result);
    }),
  );
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      if (failure) return reject(failure);
      const id = nextId++;
      pending.set(id, { resolve, reject });
      if (queue.length === 0) queueMicrotask(flush);
      queue.push(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  const notify = (method, params) => {
    if (queue.length === 0) queueMicrotask(flush);
    queue.push(JSON.stringify({ jsonrpc: '2.0', method, params }));
  };
  const initialize = async () => {
    const result = await request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'bench-raw-client', version: '1.0.0' },
    });
    notify('notifications/initialized');
    return result;
  };
  const close = async () => {
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  };
  return { child, request, initialize, close };
}

// {"echoTool": {"argument": "message", "prefix": "Echo: "}} in argv[2]: the server's echo tool takes its text
// under another name and answers it after a prefix (mcpwire serve everything's), which is checked and cut.
const { echoTool } = JSON.parse(process.argv[2] ?? '{}');

await driveMcp(
  async (command, args) => {
    const server = start(command, args);
    await server.initialize();
    return {
      pid: server.child.pid,
      echo: echoTool
        ? async (text) => {
            // Another server's echo tool: its own argument name, and a prefix before the text.
            const result = await server.request('tools/call', {
              name: 'echo',
              arguments: { [echoTool.argument]: text },
            });
            const got = result?.content?.[0]?.text;
            if (typeof got !== 'string' || !got.startsWith(echoTool.prefix)) return result;
            return { ...result, content: [{ type: 'text', text: got.slice(echoTool.prefix.length) }] };
          }
        : (text) => server.request('tools/call', { name: 'echo', arguments: { text } }),
      read: (uri) => server.request('resources/read', { uri }),
      close: server.close,
    };
  },
  {
    async cold(command, args, message) {
      const [program, ...rest] = message.server ?? [command, ...args];
      const begin = performance.now();
      const server = start(program, rest, message.env);
      await server.initialize();
      const ms = performance.now() - begin;
      const peakRssKiB = processPeakRssKiB(server.child.pid);
      await server.close();
      return { ms, peakRssKiB };
    },
  },
);
