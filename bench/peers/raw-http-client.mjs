// The hand-written HTTP client, the lower bound of the HTTP client benchmark and the one client of the HTTP
// server benchmark: one node:http POST per call on a keep-alive agent, with a hand-built body, the answer
// read as JSON or as the data line of its one SSE event, matched by id, nothing validated. The initialize
// handshake is done once, for the session id; with {"stateless": true} there is none, and every call is a
// 2026-07-28 request (the _meta envelope, and the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers).
// Its own command: { op: 'idle', sessions } opens that many sessions on the command's server (initialize
// and initialized each), leaves them idle for settleMs and answers the server's heap growth per session
// (the server answers GET heapUrl), then ends them with DELETE. `warmup` sessions are opened and ended
// first (code compiled, buffers grown: not counted); with `keep` the sessions are left open (what else
// holds them can be measured).
import http from 'node:http';
import { startHttpServer } from './http-server-process.mjs';
import { driveMcp } from './mcp-driver.mjs';

const { stateless = false } = JSON.parse(process.argv[2] ?? '{}');
const INITIALIZE =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';
const ENVELOPE =
  '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}';
const STATELESS_HEADERS = {
  'MCP-Protocol-Version': '2026-07-28',
  'Mcp-Method': 'tools/call',
  'Mcp-Name': 'echo',
};

function poster(url, agent) {
  let session;
  const post = (body, extra = {}, method = 'POST', retried = false) =>
    new Promise((resolve, reject) => {
      const headers = {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Content-Length': Buffer.byteLength(body),
        ...extra,
      };
      if (session) headers['Mcp-Session-Id'] = session;
      const request = http.request(url, { method, headers, agent }, (response) => {
        session ??= response.headers['mcp-session-id'];
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          if (response.statusCode === 202 || method === 'DELETE') return resolve(undefined);
          const text = Buffer.concat(chunks).toString('utf8');
          const json = text.startsWith('{')
            ? text
            : // The first event that carries a message: a priming event (an id and empty data) may come first.
              text.slice(text.indexOf('data: {') + 6, text.indexOf('\n', text.indexOf('data: {')));
          resolve(JSON.parse(json));
        });
      });
      request.on('error', (error) => {
        // A kept-alive socket the server closed as idle (Node's default: after 5 s) just as this request
        // took it: nothing of the request reached the server. Sent again once, on a new socket, as Node's
        // documentation advises (http.ClientRequest's reusedSocket); a run of the others can last that long.
        if (
          request.reusedSocket &&
          !retried &&
          (error.code === 'ECONNRESET' || error.message === 'socket hang up')
        ) {
          resolve(post(body, extra, method, true));
        } else reject(error);
      });
      request.end(body);
    });
  return {
    post,
    async initialize() {
      await post(INITIALIZE);
      await post('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    },
    end: () => post('', {}, 'DELETE'),
  };
}

function getJson(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      })
      .on('error', reject);
  });
}

await driveMcp(
  async (command, args) => {
    const server = await startHttpServer(command, args);
    let nextId = 1;
    const agent = new http.Agent({ keepAlive: true });
    const url = new URL(server.url);
    const { post, initialize } = poster(url, agent);
    if (!stateless) await initialize();
    return {
      pid: server.pid,
      url: server.url,
      heapUrl: server.heapUrl,
      echo: async (text) => {
        const id = nextId++;
        const answer = await post(
          `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(text)}}${stateless ? `,${ENVELOPE}` : ''}}}`,
          stateless ? STATELESS_HEADERS : {},
        );
        if (answer.id !== id) throw new Error(`answer ${answer.id} for request ${id}`);
        return answer.result;
      },
      read: () => Promise.reject(new Error('not measured over HTTP')),
      close: async () => {
        agent.destroy();
        await server.stop();
      },
    };
  },
  {
    async idle(_command, _args, message, server) {
      if (!server.heapUrl) throw new Error('the server names no heapUrl');
      const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      const url = new URL(server.url);
      const open = async (count) => {
        const opened = [];
        for (let i = 0; i < count; i += 8) {
          const batch = Array.from({ length: Math.min(8, count - i) }, () => poster(url, agent));
          await Promise.all(batch.map((s) => s.initialize()));
          opened.push(...batch);
        }
        return opened;
      };
      for (const session of await open(message.warmup ?? 0)) await session.end();
      const before = (await getJson(server.heapUrl)).heapUsed;
      const opened = await open(message.sessions);
      // Idle: past the grace period after which a server may forget the events of the streams it finished
      // (mcpwire: twice its 1 s retry hint).
      await new Promise((resolve) => setTimeout(resolve, message.settleMs ?? 0));
      const after = (await getJson(server.heapUrl)).heapUsed;
      if (!message.keep) for (const session of opened) await session.end();
      agent.destroy();
      return { bytesPerSession: (after - before) / message.sessions };
    },
  },
);
