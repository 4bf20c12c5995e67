// The proof of issue 7 against the official SDK v2 (@modelcontextprotocol/client and /server 2.4.0), which
// implements the stateless 2026-07-28 revision and the handshake revisions before it. Both directions,
// both eras:
//  - the SDK v2 Client against `mcpwire serve fs` (a real process over stdio) and against an McpServer in
//    this process (over mcpwire's in-memory pair, adapted to the SDK's Transport interface). The SDK's
//    `versionNegotiation` option forces each era: `mode: 'legacy'` runs initialize and nothing else,
//    `mode: { pin: '2026-07-28' }` runs server/discover and never falls back, and `mode: 'auto'` (probe,
//    then fall back) is shown to choose the modern era with mcpwire;
//  - mcpwire's McpClient against an SDK v2 server (test/fixtures/interop/sdk-v2-server.mjs, served by the
//    SDK's own dual-era `serveStdio`), with `era: 'handshake' | 'stateless' | 'auto'`.
// A tool that asks the user runs in each: a server-to-client elicitation/create request in the handshake
// era, an input_required result and a retry with inputResponses in the modern one, answered by the
// client's ordinary handlers either way. Every message mcpwire emits in these exchanges is checked against
// spec/mcp-schema/<revision>/schema.json.
// Needs the build (`npm run build`): bin/mcpwire.js runs dist/.

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  Client,
  type JSONRPCMessage,
  type MessageExtraInfo,
  ProtocolError,
  type Transport as SdkTransport,
  StreamableHTTPClientTransport,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createMcpHandler, McpServer as SdkMcpServer } from '@modelcontextprotocol/server';
import { McpClient } from '../../src/client/client.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import type { ElicitRequestParams, LoggingMessageNotificationParams } from '../../src/protocol/types.js';
import { McpServer } from '../../src/server/server.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import { createInMemoryPair, type InMemoryTransport } from '../../src/transport/memory.js';
import {
  BIN,
  Events,
  FIXTURES,
  HANDSHAKE,
  MODERN,
  makeTempDir,
  REPO_ROOT,
  recording,
  removeDir,
  requestMethods,
  schemaProblems,
  textOf,
  type Wire,
} from '../support/peers.js';

const V2_FIXTURE = path.join(FIXTURES, 'sdk-v2-server.mjs');
const ENVELOPE_KEYS = [
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientCapabilities',
  'io.modelcontextprotocol/clientInfo',
];

type Mode = 'legacy' | 'modern' | 'auto';

function negotiation(mode: Mode): VersionNegotiationMode {
  return mode === 'modern' ? { pin: MODERN } : mode;
}

type Message = {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

// ---- SDK v2 transports that record what crosses them ----

/**
 * Records every message between the SDK client and the transport it wraps. It exposes `stderr` and `pid`,
 * so the SDK treats it as a stdio transport; not being the SDK's own StdioClientTransport, it is probed in
 * place (the SDK probes its own stdio transport on a throwaway sibling process), so the probe is recorded
 * too.
 */
class RecordingStdio implements SdkTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly wire: Wire = { sent: [], received: [] };

  constructor(private readonly inner: StdioClientTransport) {}

  get stderr() {
    return this.inner.stderr;
  }

  get pid() {
    return this.inner.pid;
  }

  start(): Promise<void> {
    this.inner.onmessage = (message: JSONRPCMessage) => {
      this.wire.received.push(JSON.parse(JSON.stringify(message)));
      this.onmessage?.(message);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    return this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.wire.sent.push(JSON.parse(JSON.stringify(message)));
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * The SDK's Transport over one end of mcpwire's in-memory pair, recording both directions. It too says it
 * is stdio-shaped (an ordered pipe of whole messages, with no HTTP headers), which is what it is.
 */
class MemoryPipe implements SdkTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly stderr = null;
  readonly pid = null;
  readonly wire: Wire = { sent: [], received: [] };

  constructor(private readonly end: InMemoryTransport) {}

  async start(): Promise<void> {
    this.end.start({
      message: (payload) => {
        this.wire.received.push(payload);
        this.onmessage?.(payload as JSONRPCMessage);
      },
      frameError: (error) => this.onerror?.(new Error(error.message)),
      closed: () => this.onclose?.(),
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.wire.sent.push(JSON.parse(JSON.stringify(message)));
    this.end.send(message as never);
  }

  close(): Promise<void> {
    return this.end.close();
  }
}

/** An SDK v2 client that answers elicitation, sampling and roots, and keeps log messages. */
function sdkClient(
  mode: Mode,
  root = 'file:///v2/root',
): { client: Client; asked: string[]; logs: unknown[] } {
  const asked: string[] = [];
  const logs: unknown[] = [];
  const client = new Client(
    { name: 'sdk-v2-client', version: '2.4.0' },
    {
      versionNegotiation: { mode: negotiation(mode), probe: { timeoutMs: 10_000 } },
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(`elicitation: ${request.params.message}`);
    return { action: 'accept', content: { name: 'Grace' } };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sampling');
    return { role: 'assistant', content: { type: 'text', text: 'sampled by v2' }, model: 'v2-model' };
  });
  client.setRequestHandler('roots/list', async () => {
    asked.push('roots');
    return { roots: [{ uri: root, name: 'v2 root' }] };
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    logs.push(notification.params);
  });
  return { client, asked, logs };
}

/** The revision whose schema the messages of a connection in `era` follow. */
function revisionOf(era: string | undefined): string {
  return era === 'modern' ? MODERN : HANDSHAKE;
}

// ---- the SDK v2 client against `mcpwire serve fs` ----

describe('the SDK v2 Client with `mcpwire serve fs` over stdio', () => {
  let base: string;

  before(async () => {
    base = await makeTempDir('mcpwire-peers-v2-fs-');
    await mkdir(path.join(base, 'docs'));
    await writeFile(path.join(base, 'notes.txt'), 'one\ntwo\nthree\n');
    await writeFile(path.join(base, 'docs', 'readme.md'), '# docs\n');
  });

  after(async () => {
    await removeDir(base);
  });

  function spawnFs(): StdioClientTransport {
    return new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', 'fs', '--root', base],
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
  }

  const expectations: Array<{ mode: Mode; era: 'legacy' | 'modern'; version: string; first: string[] }> = [
    { mode: 'legacy', era: 'legacy', version: HANDSHAKE, first: ['initialize'] },
    { mode: 'modern', era: 'modern', version: MODERN, first: ['server/discover'] },
    { mode: 'auto', era: 'modern', version: MODERN, first: ['server/discover'] },
  ];

  for (const { mode, era, version, first } of expectations) {
    it(`versionNegotiation ${JSON.stringify(negotiation(mode))}: speaks ${version} with it`, async () => {
      const transport = new RecordingStdio(spawnFs());
      // The filesystem server asks a client that has roots for them, and serves those directories; the
      // client names the same directory the server was started with.
      const { client, asked } = sdkClient(mode, pathToFileURL(base).href);
      try {
        await client.connect(transport);
        assert.equal(client.getProtocolEra(), era);
        assert.equal(client.getNegotiatedProtocolVersion(), version);
        assert.deepEqual(client.getServerVersion(), {
          name: 'mcpwire-fs',
          title: 'mcpwire filesystem',
          version: '0.1.0',
        });
        assert.match(client.getInstructions() ?? '', /Reads/);
        const { wire } = transport;
        assert.deepEqual(requestMethods(wire.sent).slice(0, first.length), first);
        if (era === 'modern') {
          assert.ok(!requestMethods(wire.sent).includes('initialize'), 'no handshake in the modern era');
          const discover = client.getDiscoverResult();
          assert.ok(discover?.supportedVersions.includes(MODERN));
          assert.ok(discover?.supportedVersions.includes(HANDSHAKE), 'mcpwire names both eras');
        }

        const { tools } = await client.listTools();
        assert.ok(tools.some((t) => t.name === 'list_directory'));
        const listing = await client.callTool({ name: 'list_directory', arguments: { path: '.' } });
        assert.equal(listing.isError, undefined);
        assert.match(textOf(listing), /\[DIR\] docs/);
        assert.match(textOf(listing), /\[FILE\] notes\.txt/);
        const read = await client.callTool({
          name: 'read_text_file',
          arguments: { path: 'notes.txt', head: 2 },
        });
        assert.deepEqual(read.structuredContent, { content: 'one\ntwo' });

        const { resources } = await client.listResources();
        const uris = resources.map((r) => r.uri).sort();
        assert.deepEqual(uris, [
          pathToFileURL(path.join(base, 'docs', 'readme.md')).href,
          pathToFileURL(path.join(base, 'notes.txt')).href,
        ]);
        const notes = await client.readResource({ uri: pathToFileURL(path.join(base, 'notes.txt')).href });
        assert.equal((notes.contents[0] as { text?: string }).text, 'one\ntwo\nthree\n');
        // A missing resource: mcpwire answers -32002 in the handshake era and -32602 in 2026-07-28. The SDK
        // client turns a received -32002 into -32602 before the caller sees it, so the wire tells the two.
        const missing = pathToFileURL(path.join(base, 'nope.txt')).href;
        await assert.rejects(client.readResource({ uri: missing }), (error: unknown) => {
          assert.ok(error instanceof ProtocolError, String(error));
          assert.equal(error.code, -32602);
          return true;
        });
        const answer = (wire.received as Message[]).findLast((m) => m.error !== undefined);
        assert.equal(answer?.error?.code, era === 'modern' ? -32602 : -32002);
        assert.match(answer?.error?.message ?? '', /Resource not found/);
        if (era === 'legacy') assert.deepEqual(await client.ping(), {});

        if (era === 'modern') {
          // Every request after the probe carried the envelope, and every result named its type.
          for (const message of wire.sent as Message[]) {
            if (message.method === undefined || message.id === undefined) continue;
            for (const key of ENVELOPE_KEYS) assert.ok(key in (message.params?._meta ?? {}), key);
          }
          // The server asked for the roots with an input_required result, answered by the roots handler.
          for (const message of wire.received as Message[]) {
            if (!message.result) continue;
            assert.ok(['complete', 'input_required'].includes(String(message.result.resultType)));
            if (message.result.resultType === 'input_required') {
              assert.deepEqual(Object.values(message.result.inputRequests ?? {}), [
                { method: 'roots/list', params: {} },
              ]);
            }
          }
          assert.deepEqual(requestMethods(wire.received), [], 'no server-to-client request in 2026-07-28');
        } else {
          assert.deepEqual(requestMethods(wire.received), ['roots/list'], 'asked once, after initialized');
        }
        assert.ok(asked.includes('roots'));
        // What the SDK client received is what mcpwire's server emitted.
        assert.deepEqual(
          await schemaProblems(revisionOf(era), { sent: wire.received, received: wire.sent }),
          [],
        );
      } finally {
        await client.close();
      }
    });
  }

  it("versionNegotiation 'auto' with the SDK's own StdioClientTransport (probe on a sibling process)", async () => {
    const { client } = sdkClient('auto', pathToFileURL(base).href);
    try {
      await client.connect(spawnFs());
      assert.equal(client.getProtocolEra(), 'modern');
      const result = await client.callTool({ name: 'list_directory', arguments: { path: 'docs' } });
      assert.equal(textOf(result), '[FILE] readme.md');
    } finally {
      await client.close();
    }
  });
});

// ---- the SDK v2 client against an McpServer in this process ----

function inProcessServer(): McpServer {
  const server = new McpServer({ name: 'mcpwire-inproc', version: '1.0.0', instructions: 'In process.' });
  server.tool({ name: 'ask_name', description: 'Asks the user for a name' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return {
      content: [
        {
          type: 'text',
          text: `${ctx.protocolVersion}: hello ${String(answer.content?.name)} (${answer.action})`,
        },
      ],
    };
  });
  server.tool(
    { name: 'ask_three', description: 'Asks for a name, a completion and the roots, one after another' },
    async (_args, ctx) => {
      const name = await ctx.elicit({
        message: 'Who?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      const sampled = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 5,
      });
      const { roots } = await ctx.listRoots();
      const said = sampled.content.type === 'text' ? sampled.content.text : sampled.content.type;
      return {
        content: [
          {
            type: 'text',
            text: `${String(name.content?.name)}; ${said}; ${roots.map((r) => r.uri).join(',')}`,
          },
        ],
      };
    },
  );
  server.tool(
    {
      name: 'work',
      description: 'Works in steps with progress and logging',
      inputSchema: { type: 'object', properties: { steps: { type: 'integer' } }, required: ['steps'] },
    },
    async (args, ctx) => {
      const steps = Number(args.steps);
      for (let i = 1; i <= steps; i++) {
        ctx.progress(i, steps, `step ${i}`);
        ctx.log('info', `step ${i}`);
      }
      return { content: [{ type: 'text', text: `worked ${steps}` }] };
    },
  );
  server.resource({ uri: 'mem://note', name: 'note', mimeType: 'text/plain' }, (uri) => [
    { uri, mimeType: 'text/plain', text: 'in memory' },
  ]);
  server.prompt({ name: 'greet', arguments: [{ name: 'who', required: true }] }, (args) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Greet ${args.who}` } }],
  }));
  return server;
}

describe('the SDK v2 Client with an mcpwire McpServer in this process', () => {
  // One server object serves every connection below, whatever era each speaks.
  const server = inProcessServer();

  async function connect(mode: Mode) {
    const [clientEnd, serverEnd] = createInMemoryPair();
    server.connect(serverEnd);
    const pipe = new MemoryPipe(clientEnd);
    const sdk = sdkClient(mode);
    await sdk.client.connect(pipe);
    return { ...sdk, wire: pipe.wire };
  }

  it("versionNegotiation 'legacy': the elicitation is a request from the server, answered by the handler", async () => {
    const { client, wire, asked } = await connect('legacy');
    try {
      assert.equal(client.getProtocolEra(), 'legacy');
      const result = await client.callTool({ name: 'ask_name', arguments: {} });
      assert.equal(textOf(result), `${HANDSHAKE}: hello Grace (accept)`);
      assert.deepEqual(asked, ['elicitation: Your name?']);
      assert.deepEqual(requestMethods(wire.received), ['elicitation/create']);
      const three = await client.callTool({ name: 'ask_three', arguments: {} });
      assert.equal(textOf(three), 'Grace; sampled by v2; file:///v2/root');
      assert.deepEqual(requestMethods(wire.received), [
        'elicitation/create',
        'elicitation/create',
        'sampling/createMessage',
        'roots/list',
      ]);
      assert.deepEqual(await schemaProblems(HANDSHAKE, { sent: wire.received, received: wire.sent }), []);
    } finally {
      await client.close();
    }
  });

  for (const mode of ['modern', 'auto'] as const) {
    it(`versionNegotiation ${JSON.stringify(negotiation(mode))}: the elicitation is an input_required round trip`, async () => {
      const { client, wire, asked } = await connect(mode);
      try {
        assert.equal(client.getProtocolEra(), 'modern');
        assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
        const result = await client.callTool({ name: 'ask_name', arguments: {} });
        assert.equal(textOf(result), `${MODERN}: hello Grace (accept)`);
        assert.deepEqual(asked, ['elicitation: Your name?']);
        // No request ever went from the server to the client: the question came back as a result.
        assert.deepEqual(requestMethods(wire.received), []);
        const calls = (wire.sent as Message[]).filter((m) => m.method === 'tools/call');
        assert.equal(calls.length, 2, 'the call, then its retry with the answer');
        const firstId = calls[0]?.id;
        const inputRequired = (wire.received as Message[]).find((m) => m.id === firstId)?.result;
        assert.equal(inputRequired?.resultType, 'input_required');
        const requests = inputRequired?.inputRequests as Record<string, { method: string }>;
        const [key] = Object.keys(requests);
        assert.equal(requests[key!]?.method, 'elicitation/create');
        const retry = calls[1]?.params ?? {};
        assert.deepEqual(retry.inputResponses, { [key!]: { action: 'accept', content: { name: 'Grace' } } });
        assert.equal(retry.requestState, inputRequired?.requestState, 'requestState echoed byte for byte');

        // Three questions: three rounds, each carrying the answers so far in requestState.
        const three = await client.callTool({ name: 'ask_three', arguments: {} });
        assert.equal(textOf(three), 'Grace; sampled by v2; file:///v2/root');
        assert.deepEqual(asked, ['elicitation: Your name?', 'elicitation: Who?', 'sampling', 'roots']);
        assert.equal((wire.sent as Message[]).filter((m) => m.method === 'tools/call').length, 2 + 4);
        assert.deepEqual(requestMethods(wire.received), []);
        assert.deepEqual(await schemaProblems(MODERN, { sent: wire.received, received: wire.sent }), []);
      } finally {
        await client.close();
      }
    });
  }

  for (const mode of ['legacy', 'modern'] as const) {
    it(`${mode}: progress, logging, a resource and a prompt`, async () => {
      const { client, wire, logs } = await connect(mode);
      try {
        const progress: number[] = [];
        let result: Awaited<ReturnType<Client['callTool']>>;
        if (mode === 'legacy') {
          await client.setLoggingLevel('info');
          result = await client.callTool(
            { name: 'work', arguments: { steps: 2 } },
            { onprogress: (p) => progress.push(p.progress) },
          );
        } else {
          // The SDK refuses logging/setLevel on a 2026-07-28 connection; the level is asked for per request,
          // in the request's own _meta. Without it, a stateless server sends no log messages at all.
          await assert.rejects(
            client.setLoggingLevel('info'),
            /not supported by the negotiated protocol version/,
          );
          await client.callTool({ name: 'work', arguments: { steps: 1 } });
          assert.deepEqual(logs, [], 'no log messages for a request that asked for none');
          result = await client.callTool(
            {
              name: 'work',
              arguments: { steps: 2 },
              _meta: { 'io.modelcontextprotocol/logLevel': 'info' },
            },
            { onprogress: (p) => progress.push(p.progress) },
          );
        }
        assert.equal(textOf(result), 'worked 2');
        assert.deepEqual(progress, [1, 2]);
        assert.deepEqual(
          logs.map((l) => (l as LoggingMessageNotificationParams).data),
          ['step 1', 'step 2'],
        );
        const note = await client.readResource({ uri: 'mem://note' });
        assert.deepEqual(note.contents, [{ uri: 'mem://note', mimeType: 'text/plain', text: 'in memory' }]);
        const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
        assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Greet Ada' } }]);
        const revision = mode === 'modern' ? MODERN : HANDSHAKE;
        assert.deepEqual(await schemaProblems(revision, { sent: wire.received, received: wire.sent }), []);
      } finally {
        await client.close();
      }
    });
  }

  it('one server object serves a legacy and a modern client at the same time', async () => {
    const [legacy, modern] = await Promise.all([connect('legacy'), connect('modern')]);
    try {
      const [fromLegacy, fromModern] = await Promise.all([
        legacy.client.callTool({ name: 'ask_name', arguments: {} }),
        modern.client.callTool({ name: 'ask_name', arguments: {} }),
      ]);
      assert.equal(textOf(fromLegacy), `${HANDSHAKE}: hello Grace (accept)`);
      assert.equal(textOf(fromModern), `${MODERN}: hello Grace (accept)`);
      assert.deepEqual(requestMethods(legacy.wire.received), ['elicitation/create']);
      assert.deepEqual(requestMethods(modern.wire.received), []);
    } finally {
      await Promise.all([legacy.client.close(), modern.client.close()]);
    }
  });

  it('modern: subscriptions/listen delivers a list change on the subscription', async () => {
    const { client, wire } = await connect('modern');
    const events = new Events();
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
      events.nudge();
    });
    try {
      const subscription = await client.listen({ toolsListChanged: true });
      assert.deepEqual(subscription.honoredFilter, { toolsListChanged: true });
      const added = server.tool(
        { name: 'late', description: 'Registered after the client listened' },
        () => ({
          content: [{ type: 'text', text: 'late' }],
        }),
      );
      await events.until(() => (changed > 0 ? changed : undefined), 5000, 'tools/list_changed');
      added.remove();
      await subscription.close();
      assert.deepEqual(await schemaProblems(MODERN, { sent: wire.received, received: wire.sent }), []);
    } finally {
      await client.close();
    }
  });
});

// ---- mcpwire's client against an SDK v2 server ----

describe('mcpwire McpClient with an SDK v2 server (serveStdio) over stdio', () => {
  const cases: Array<{ era: 'handshake' | 'stateless' | 'auto'; expected: 'handshake' | 'stateless' }> = [
    { era: 'handshake', expected: 'handshake' },
    { era: 'stateless', expected: 'stateless' },
    { era: 'auto', expected: 'stateless' },
  ];

  for (const { era, expected } of cases) {
    describe(`era: '${era}'`, () => {
      let client: McpClient;
      let wire: Wire;
      const elicited: ElicitRequestParams[] = [];
      const logs: LoggingMessageNotificationParams[] = [];
      const changed: string[] = [];
      const events = new Events();

      before(async () => {
        client = new McpClient({
          name: 'mcpwire-peers',
          version: '1.0.0',
          era,
          timeout: 20_000,
          onElicitation: async (params) => {
            elicited.push(params);
            return { action: 'accept', content: { name: 'Ada' } };
          },
          onSampling: async () => ({
            role: 'assistant',
            content: { type: 'text', text: 'hi from mcpwire' },
            model: 'mcpwire-model',
          }),
          onLog: (message) => logs.push(message),
          onListChanged: (list) => {
            changed.push(list);
            events.nudge();
          },
        });
        const recorded = recording(
          new ChildProcessTransport({ command: process.execPath, args: [V2_FIXTURE], stderr: 'pipe' }),
        );
        wire = recorded.wire;
        await client.connect(recorded.transport, { timeout: 20_000 });
      });

      after(async () => {
        await client?.close();
      });

      it(`talks ${expected === 'stateless' ? MODERN : HANDSHAKE}`, () => {
        assert.equal(client.era, expected);
        assert.equal(client.protocolVersion, expected === 'stateless' ? MODERN : HANDSHAKE);
        assert.deepEqual(client.serverInfo, { name: 'sdk-v2-fixture', version: '2.4.0' });
        assert.equal(client.instructions, 'An SDK v2 fixture for mcpwire interop tests.');
        assert.deepEqual(requestMethods(wire.sent).slice(0, 1), [
          expected === 'stateless' ? 'server/discover' : 'initialize',
        ]);
      });

      it('lists and calls tools', async () => {
        const names = (await client.listAllTools()).map((t) => t.name).sort();
        assert.deepEqual(names, ['ask_model', 'ask_name', 'count', 'echo', 'fail', 'grow']);
        assert.equal(textOf(await client.callTool('echo', { text: 'ping' })), `${expected} echo: ping`);
        const failed = await client.callTool('fail');
        assert.equal(failed.isError, true);
        assert.equal(textOf(failed), 'it failed on purpose');
      });

      it('answers the elicitation of a tool through onElicitation', async () => {
        const result = await client.callTool('ask_name');
        assert.equal(textOf(result), `${expected}: hello Ada (accept)`);
        assert.equal(elicited.length, 1);
        assert.equal(elicited[0]?.message, 'Your name?');
        const serverRequests = requestMethods(wire.received);
        if (expected === 'stateless') {
          // An input_required result, then the same call again with the answer and the echoed state.
          assert.deepEqual(serverRequests, []);
          const calls = (wire.sent as Message[]).filter(
            (m) => m.method === 'tools/call' && m.params?.name === 'ask_name',
          );
          assert.equal(calls.length, 2);
          assert.deepEqual(calls[1]?.params?.inputResponses, {
            name: { action: 'accept', content: { name: 'Ada' } },
          });
          assert.equal(calls[1]?.params?.requestState, 'asked-name');
        } else {
          assert.deepEqual(serverRequests, ['elicitation/create']);
        }
      });

      it('answers the sampling of a tool through onSampling', async () => {
        assert.equal(textOf(await client.callTool('ask_model')), `${expected}: model said hi from mcpwire`);
      });

      it('receives progress, and log messages at the level it set', async () => {
        await client.callTool('count', { n: 1 });
        // No level set: the modern server sends nothing for a request without a logLevel; the handshake
        // era server sends everything.
        assert.deepEqual(
          logs.map((l) => l.data),
          expected === 'stateless' ? [] : ['debug: counting to 1', 'counting to 1'],
        );
        logs.length = 0;
        await client.setLoggingLevel('info');
        const progress: Array<[number, number | undefined]> = [];
        const result = await client.callTool(
          'count',
          { n: 3 },
          { onProgress: (p) => progress.push([p.progress, p.total]) },
        );
        assert.equal(textOf(result), `${expected}: counted to 3`);
        assert.deepEqual(
          logs.map((l) => [l.level, l.data]),
          [['info', 'counting to 3']],
        );
        const countCall = (wire.sent as Message[]).findLast((m) => m.method === 'tools/call');
        if (expected === 'stateless') {
          assert.equal(countCall?.params?._meta?.['io.modelcontextprotocol/logLevel'], 'info');
          assert.ok(!requestMethods(wire.sent).includes('logging/setLevel'));
        } else {
          assert.ok(requestMethods(wire.sent).includes('logging/setLevel'));
        }
        assert.deepEqual(progress, [
          [1, 3],
          [2, 3],
          [3, 3],
        ]);
      });

      it('reads a resource, gets a prompt, and takes -32602 for a missing resource', async () => {
        const read = await client.readResource('fixture://greeting');
        assert.deepEqual(read.contents, [
          { uri: 'fixture://greeting', mimeType: 'text/plain', text: 'hello from SDK v2' },
        ]);
        assert.equal((await client.listAllResources())[0]?.uri, 'fixture://greeting');
        const prompt = await client.getPrompt('greet', { who: 'Bob' });
        assert.deepEqual(prompt.messages, [
          { role: 'user', content: { type: 'text', text: 'Please greet Bob.' } },
        ]);
        await assert.rejects(client.readResource('fixture://missing'), (error: unknown) => {
          assert.ok(error instanceof JsonRpcError);
          // The SDK answers -32602 in both eras (it never emits -32002).
          assert.equal(error.code, -32602);
          return true;
        });
      });

      it('pings (server/discover in the stateless era, which has no ping), resolving to {} in both', async () => {
        const pong = await client.ping();
        assert.deepEqual(pong, {});
        assert.equal(requestMethods(wire.sent).at(-1), expected === 'stateless' ? 'server/discover' : 'ping');
      });

      it('is told when the tool list changes', async () => {
        assert.equal(textOf(await client.callTool('grow')), `${expected}: added extra_1`);
        await events.until(() => (changed.includes('tools') ? true : undefined), 5000, 'tools/list_changed');
        assert.ok((await client.listAllTools()).some((t) => t.name === 'extra_1'));
        const notice = (wire.received as Message[]).find(
          (m) => m.method === 'notifications/tools/list_changed',
        );
        if (expected === 'stateless') {
          // Only on the subscriptions/listen stream the client opened at connect, marked with its id.
          const listen = (wire.sent as Message[]).find((m) => m.method === 'subscriptions/listen');
          assert.deepEqual(listen?.params?.notifications, {
            toolsListChanged: true,
            resourcesListChanged: true,
            promptsListChanged: true,
          });
          assert.equal(notice?.params?._meta?.['io.modelcontextprotocol/subscriptionId'], listen?.id);
        } else {
          assert.ok(!requestMethods(wire.sent).includes('subscriptions/listen'));
          assert.ok(notice);
        }
      });

      it('sent only messages valid under the schema of the revision in use', async () => {
        const revision = expected === 'stateless' ? MODERN : HANDSHAKE;
        assert.deepEqual(await schemaProblems(revision, wire), []);
        if (expected === 'stateless') {
          for (const message of wire.sent as Message[]) {
            if (message.method === undefined) continue;
            for (const key of ENVELOPE_KEYS)
              assert.ok(key in (message.params?._meta ?? {}), `${key} on ${message.method}`);
          }
        }
      });
    });
  }
});

// ---- Streamable HTTP ----

describe('over Streamable HTTP, in both eras', () => {
  // The 2025-11-25 binding (sessions, initialize) and the 2026-07-28 one (a sessionless POST per request,
  // carrying MCP-Protocol-Version, Mcp-Method and Mcp-Name) on the same endpoint, in both directions.

  describe('the SDK v2 Client with mcpwire McpServer.serveHttp()', () => {
    const server = inProcessServer();
    let listener: Awaited<ReturnType<McpServer['serveHttp']>>;

    before(async () => {
      listener = await server.serveHttp();
    });

    after(async () => {
      await listener?.close();
    });

    for (const [mode, era] of [
      ['legacy', 'legacy'],
      ['auto', 'modern'],
      ['modern', 'modern'],
    ] as const) {
      it(`versionNegotiation '${mode}' ends in the ${era} era; elicitation works`, async () => {
        const { client, asked } = sdkClient(mode);
        try {
          await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
          assert.equal(client.getProtocolEra(), era);
          const version = era === 'modern' ? MODERN : HANDSHAKE;
          assert.equal(client.getNegotiatedProtocolVersion(), version);
          const result = await client.callTool({ name: 'ask_name', arguments: {} });
          assert.equal(textOf(result), `${version}: hello Grace (accept)`);
          assert.deepEqual(asked, ['elicitation: Your name?']);
        } finally {
          await client.close();
        }
      });
    }
  });

  describe('mcpwire McpClient with an SDK v2 server (createMcpHandler, both eras)', () => {
    let http: Server;
    let url: string;
    let close: () => Promise<void>;
    const rejected: string[] = [];

    before(async () => {
      const handler = createMcpHandler(
        () => {
          const server = new SdkMcpServer({ name: 'sdk-v2-http', version: '2.4.0' });
          server.registerTool('hello', { description: 'Says hello' }, async () => ({
            content: [{ type: 'text', text: 'hello over HTTP' }],
          }));
          return server;
        },
        { onerror: (error) => rejected.push(error.message) },
      );
      // The handler is web-standard (Request in, Response out); this is the smallest Node adapter.
      http = createHttpServer(async (request, response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (typeof value === 'string') headers.set(name, value);
        }
        const answer = await handler.fetch(
          new Request(`http://${request.headers.host}${request.url}`, {
            method: request.method,
            headers,
            body: request.method === 'POST' ? Buffer.concat(chunks) : undefined,
          }),
        );
        response.writeHead(answer.status, Object.fromEntries(answer.headers));
        if (answer.body)
          for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>)
            response.write(chunk);
        response.end();
      });
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      close = async () => {
        await handler.close();
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      };
    });

    after(async () => {
      await close?.();
    });

    it("era 'auto' settles on 2026-07-28: sessionless POSTs with the metadata headers, valid under its schema", async () => {
      const client = new McpClient({ name: 'mcpwire-peers', version: '1.0.0' });
      const { transport, wire } = recording(new HttpClientTransport(url));
      try {
        await client.connect(transport, { timeout: 20_000 });
        assert.equal(client.era, 'stateless');
        assert.equal(textOf(await client.callTool('hello')), 'hello over HTTP');
        assert.deepEqual(rejected, [], 'the SDK server refused nothing (its header checks passed)');
        assert.deepEqual(await schemaProblems(MODERN, wire), []);
      } finally {
        await client.close();
      }
    });

    it("era 'stateless' and era 'handshake' both work against the same endpoint", async () => {
      for (const era of ['stateless', 'handshake'] as const) {
        const client = new McpClient({ name: 'mcpwire-peers', version: '1.0.0', era });
        try {
          await client.connect(new HttpClientTransport(url), { timeout: 20_000 });
          assert.equal(client.era, era);
          if (era === 'handshake') assert.equal(client.protocolVersion, HANDSHAKE);
          assert.equal(textOf(await client.callTool('hello')), 'hello over HTTP');
        } finally {
          await client.close();
        }
      }
      assert.deepEqual(rejected, []);
    });
  });
});
