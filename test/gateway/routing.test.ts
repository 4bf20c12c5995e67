// Whose is a server's request? What a back server asks (sampling here) goes to the client whose call it
// was asked for, not to whichever call came last: by the call it names (a 2026-07-28 round of that call,
// or a request on that call's own HTTP stream). A stdio server of the handshake era names none: with
// calls of two clients in flight on it, its request is refused rather than put to the wrong client; the
// proxy's pool gives a 2026-07-28 call a server process of its own while another call runs.
// Needs the build (`npm run build`): the proxy and the gateway's stdio server run dist/.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { parseFilters } from '../../src/gateway/filters.js';
import { type Gateway, openGateway, serveGatewayHttp } from '../../src/gateway/gateway.js';
import { type HttpProxy, proxyHttp } from '../../src/gateway/proxy.js';
import { parseConfig } from '../../src/host/config.js';
import { McpServer } from '../../src/server/server.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { EVERYTHING_BIN, REPO_ROOT, textOf } from '../support/peers.js';

class Gate {
  readonly opened: Promise<void>;
  open!: () => void;
  constructor() {
    this.opened = new Promise((resolve) => {
      this.open = resolve;
    });
  }
}

/** A client through `url` whose sampling answers say who it is, after `hold` opens. */
function clientNamed(
  name: string,
  era: 'handshake' | 'stateless',
  asked: string[],
  hold?: Gate,
  told?: Gate,
) {
  return new McpClient({
    name,
    version: '1.0.0',
    era,
    timeout: 30_000,
    onSampling: async (params) => {
      const text = (params.messages[0]?.content as { text?: string } | undefined)?.text ?? '';
      asked.push(`${name} asked: ${text}`);
      told?.open();
      await hold?.opened;
      return { role: 'assistant', content: { type: 'text', text: `answered by ${name}` }, model: 'm' };
    },
  });
}

async function connected(client: McpClient, url: string): Promise<McpClient> {
  await client.connect(new HttpClientTransport(url), { timeout: 30_000 });
  return client;
}

describe('gateway: a remote server asks for the call it names', () => {
  let remote: McpServer;
  let remoteListener: HttpListener;
  let gateway: Gateway;
  let front: HttpListener;
  const started = new Map<string, Gate>();
  const release = new Map<string, Gate>();
  const gate = (map: Map<string, Gate>, key: string) => {
    if (!map.has(key)) map.set(key, new Gate());
    return map.get(key)!;
  };

  before(async () => {
    remote = new McpServer({ name: 'remote', version: '1.0.0' });
    remote.tool(
      {
        name: 'ask',
        inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
      },
      async (args, context) => {
        const who = String(args.who);
        gate(started, who).open();
        await gate(release, who).opened;
        const answer = await context.sample({
          messages: [{ role: 'user', content: { type: 'text', text: `for ${who}` } }],
          maxTokens: 10,
        });
        return { content: [{ type: 'text', text: (answer.content as { text: string }).text }] };
      },
    );
    remoteListener = await remote.serveHttp();
    const json = { mcpServers: { remote: { url: remoteListener.url } } };
    gateway = await openGateway(
      { host: parseConfig(json, process.env, REPO_ROOT), filters: parseFilters(json, 'test') },
      { info: { name: 'gw', version: '1.0.0' } },
    );
    front = await serveGatewayHttp(gateway);
  });

  after(async () => {
    await front?.close();
    await gateway?.close();
    await remoteListener?.close();
  });

  for (const era of ['handshake', 'stateless'] as const) {
    it(`puts the request to the client whose call it is, though another call came later (${era} fronts)`, async () => {
      const asked: string[] = [];
      const a = await connected(clientNamed(`a-${era}`, era, asked), front.url);
      const b = await connected(clientNamed(`b-${era}`, era, asked), front.url);
      try {
        const first = a.callTool('remote__ask', { who: `a-${era}` });
        await gate(started, `a-${era}`).opened;
        const second = b.callTool('remote__ask', { who: `b-${era}` });
        await gate(started, `b-${era}`).opened;
        // The first call asks now, while the second is the latest in flight.
        gate(release, `a-${era}`).open();
        assert.equal(textOf(await first), `answered by a-${era}`);
        gate(release, `b-${era}`).open();
        assert.equal(textOf(await second), `answered by b-${era}`);
        assert.deepEqual(asked, [`a-${era} asked: for a-${era}`, `b-${era} asked: for b-${era}`]);
      } finally {
        await a.close();
        await b.close();
      }
    });
  }
});

describe('gateway: a stdio server of the handshake era, calls of two clients in flight', () => {
  let gateway: Gateway;
  let front: HttpListener;

  before(async () => {
    const json = { mcpServers: { everything: { command: EVERYTHING_BIN, args: [] } } };
    gateway = await openGateway(
      { host: parseConfig(json, process.env, REPO_ROOT), filters: parseFilters(json, 'test') },
      { info: { name: 'gw', version: '1.0.0' } },
    );
    front = await serveGatewayHttp(gateway);
  });

  after(async () => {
    await front?.close();
    await gateway?.close();
  });

  it('refuses a request that names no call instead of asking the wrong client', async () => {
    const asked: string[] = [];
    const hold = new Gate();
    const aAsked = new Gate();
    const a = await connected(clientNamed('a', 'handshake', asked, hold, aAsked), front.url);
    const b = await connected(clientNamed('b', 'handshake', asked), front.url);
    try {
      const first = a.callTool('everything__trigger-sampling-request', { prompt: 'from a', maxTokens: 5 });
      // a is being asked (and holds its answer): its call is in flight on the server.
      await aAsked.opened;
      assert.equal(asked.length, 1);
      assert.match(asked[0]!, /^a asked: .*from a/);
      const second = await b
        .callTool('everything__trigger-sampling-request', { prompt: 'from b', maxTokens: 5 })
        .then(
          (result) => JSON.stringify(result),
          (error: Error) => error.message,
        );
      assert.match(second, /whose it is cannot be told/);
      hold.open();
      assert.match(JSON.stringify(await first), /answered by a/);
      assert.equal(asked.length, 1, 'b was never asked, nor a for b');
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('proxy: 2026-07-28 requests spread over a pool of server processes', () => {
  let proxy: HttpProxy;
  let sharedStarted = 0;

  before(async () => {
    proxy = await proxyHttp(
      {
        open: () => new ChildProcessTransport({ command: EVERYTHING_BIN, args: [], inheritEnv: true }),
        clientInfo: { name: 'pool-test', version: '1.0.0' },
        poolSize: 2,
        onEvent: (event) => {
          if (event.type === 'started' && event.shared) sharedStarted++;
        },
      },
      { port: 0 },
    );
  });

  after(async () => {
    await proxy?.close();
  });

  it("gives a call a process of its own while another runs, so the server's request is known to be its", async () => {
    const asked: string[] = [];
    const a = await connected(clientNamed('a', 'stateless', asked), proxy.url);
    const b = await connected(clientNamed('b', 'stateless', asked), proxy.url);
    const controller = new AbortController();
    try {
      assert.equal(sharedStarted, 1);
      let running: () => void = () => {};
      const isRunning = new Promise<void>((resolve) => {
        running = resolve;
      });
      const long = a
        .callTool(
          'trigger-long-running-operation',
          { duration: 30, steps: 30 },
          { signal: controller.signal, onProgress: () => running() },
        )
        .catch(() => undefined);
      await isRunning;
      const sampled = await b.callTool('trigger-sampling-request', { prompt: 'from b', maxTokens: 5 });
      assert.match(JSON.stringify(sampled), /answered by b/);
      assert.equal(asked.length, 1);
      assert.match(asked[0]!, /^b asked: .*from b/);
      assert.equal(sharedStarted, 2, 'a second shared process served the second call');
      controller.abort();
      await long;
    } finally {
      await a.close();
      await b.close();
    }
  });
});
