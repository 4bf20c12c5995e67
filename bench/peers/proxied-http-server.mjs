// An HTTP server command seen through a proxy, for the `trace-http` benchmark:
//   node proxied-http-server.mjs ROUTE LOG -- SERVER COMMAND...
// starts the server command (which prints {"url": ...} once it listens), then, by ROUTE, either nothing
// (direct), the hand-written byte-copying proxy in this process (raw: the lower bound of any HTTP proxy
// process), or `mcpwire trace --http 0 --url URL --log LOG`; prints {"url": ...} of what the client should
// use, and stops everything once its stdin closes, as every benchmark server does.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startHttpServer } from './http-server-process.mjs';

const BIN = fileURLToPath(new URL('../../bin/mcpwire.js', import.meta.url));
const [route, log, dash, command, ...args] = process.argv.slice(2);
if (dash !== '--' || !command) throw new Error('usage: proxied-http-server.mjs ROUTE LOG -- COMMAND...');

const server = await startHttpServer(command, args);
const stops = [() => server.stop()];
let url = server.url;

if (route === 'raw') {
  // Copies each request and answer through, bytes untouched, on a keep-alive agent: nothing parsed,
  // nothing recorded.
  const upstream = new URL(server.url);
  const agent = new http.Agent({ keepAlive: true });
  const proxy = http.createServer((req, res) => {
    const out = http.request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${proxy.address().port}${upstream.pathname}`;
  stops.push(() => {
    proxy.close();
    proxy.closeAllConnections();
    agent.destroy();
  });
} else if (route === 'trace') {
  const trace = spawn(process.execPath, [BIN, 'trace', '--http', '0', '--url', server.url, '--log', log], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise((resolve, reject) => {
    let seen = '';
    trace.stderr.setEncoding('utf8').on('data', (text) => {
      seen += text;
      const found = /listening on (http:\/\/\S+),/.exec(seen)?.[1];
      if (found) resolve(found);
    });
    trace.once('exit', (code) => reject(new Error(`trace exited (${code}) before listening: ${seen}`)));
  });
  stops.push(() => trace.kill('SIGTERM'));
} else if (route !== 'direct') throw new Error(`unknown route ${route}`);

process.stdout.write(`${JSON.stringify({ url })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  for (const stop of stops) stop();
});
