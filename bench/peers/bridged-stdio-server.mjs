// A stdio server command behind a stdio→Streamable HTTP bridge, for the `proxy` benchmark:
//   node bridged-stdio-server.mjs ROUTE -- SERVER COMMAND...
// ROUTE is `minimal` (a hand-written bridge in this process: one child, each POST body written to its
// stdin as a line, each answer matched back by id; nothing checked, the lower bound of any bridge),
// `mcpwire` (`mcpwire proxy --http 0`), `supergateway` (`--outputTransport streamableHttp --stateful`) or
// `mcp-proxy` (`--server stream`). Prints {"url": ..., "pid": ...} (the bridge's process, whose CPU is
// measured) and stops everything once its stdin closes, as every benchmark server does.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/mcpwire.js', import.meta.url));
const require = createRequire(import.meta.url);
const [route, dash, command, ...args] = process.argv.slice(2);
if (dash !== '--' || !command) throw new Error('usage: bridged-stdio-server.mjs ROUTE -- COMMAND...');

const stops = [];
let url;
let pid = process.pid;

function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitForPort(port, child) {
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`${route} exited (${child.exitCode})`);
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${route} never listened on ${port}`);
}

function startNode(script, scriptArgs) {
  const child = spawn(process.execPath, [script, ...scriptArgs], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.resume();
  stops.push(() => child.kill('SIGTERM'));
  pid = child.pid;
  return child;
}

if (route === 'minimal') {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  stops.push(() => child.stdin.end());
  const pending = new Map();
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (text) => {
    buffer += text;
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const id = /"id":(\d+|"[^"]*")/.exec(line)?.[1];
      const response = id === undefined ? undefined : pending.get(id);
      if (!response) continue;
      pending.delete(id);
      response.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'minimal' }).end(line);
    }
  });
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = /^\{"jsonrpc":"2\.0","id":(\d+|"[^"]*")/.exec(body)?.[1];
      if (id === undefined) res.writeHead(202).end();
      else pending.set(id, res);
      child.stdin.write(`${body}\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}/mcp`;
  stops.push(() => {
    server.close();
    server.closeAllConnections();
  });
} else if (route === 'mcpwire') {
  const proxy = startNode(BIN, ['proxy', '--http', '0', '--', command, ...args]);
  url = await new Promise((resolve, reject) => {
    let seen = '';
    proxy.stderr.setEncoding('utf8').on('data', (text) => {
      seen += text;
      const found = /listening on (http:\/\/\S+)/.exec(seen)?.[1];
      if (found) resolve(found);
    });
    proxy.once('exit', (code) => reject(new Error(`mcpwire proxy exited (${code}): ${seen}`)));
  });
} else if (route === 'supergateway') {
  const port = await freePort();
  const quoted = [command, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const child = startNode(require.resolve('supergateway/dist/index.js'), [
    '--stdio',
    quoted,
    '--outputTransport',
    'streamableHttp',
    '--stateful',
    '--port',
    String(port),
    '--logLevel',
    'none',
  ]);
  await waitForPort(port, child);
  url = `http://127.0.0.1:${port}/mcp`;
} else if (route === 'mcp-proxy') {
  const port = await freePort();
  const script = fileURLToPath(
    new URL('../../node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs', import.meta.url),
  );
  const child = startNode(script, [
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--server',
    'stream',
    '--',
    command,
    ...args,
  ]);
  await waitForPort(port, child);
  url = `http://127.0.0.1:${port}/mcp`;
} else {
  throw new Error(`unknown route ${route}`);
}

process.stdout.write(`${JSON.stringify({ url, pid })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  for (const stop of stops) stop();
});
