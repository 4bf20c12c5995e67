// The hand-written HTTP client, the lower bound of the HTTP client benchmark: one node:http POST per call
// on a keep-alive agent, with a hand-built body, the answer read as JSON or as the data line of its one SSE
// event, matched by id, nothing validated. The initialize handshake is done once, for the session id.
import http from 'node:http';
import { startHttpServer } from './http-server-process.mjs';
import { driveMcp } from './mcp-driver.mjs';

await driveMcp(async (command, args) => {
  const server = await startHttpServer(command, args);
  let nextId = 1;
  let session;
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL(server.url);
  const post = (body) =>
    new Promise((resolve, reject) => {
      const headers = {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Content-Length': Buffer.byteLength(body),
      };
      if (session) headers['Mcp-Session-Id'] = session;
      const request = http.request(url, { method: 'POST', headers, agent }, (response) => {
        session ??= response.headers['mcp-session-id'];
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          if (response.statusCode === 202) return resolve(undefined);
          const text = Buffer.concat(chunks).toString('utf8');
          const json = text.startsWith('{')
            ? text
            : // The first event that carries a message: a priming event (an id and empty data) may come first.
              text.slice(text.indexOf('data: {') + 6, text.indexOf('\n', text.indexOf('data: {')));
          resolve(JSON.parse(json));
        });
      });
      request.on('error', reject);
      request.end(body);
    });
  await post(
    `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
  );
  await post('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  return {
    pid: server.pid,
    echo: async (text) => {
      const id = nextId++;
      const answer = await post(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(text)}}}}`,
      );
      if (answer.id !== id) throw new Error(`answer ${answer.id} for request ${id}`);
      return answer.result;
    },
    read: () => Promise.reject(new Error('not measured over HTTP')),
    close: async () => {
      agent.destroy();
      server.stop();
    },
  };
});
