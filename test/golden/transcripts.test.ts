// Golden wire transcripts: for each file in test/golden/testdata/, the client's lines are fed to a real
// McpServer over the stream transport (in-memory streams, in this process) and the lines the server writes
// must be exactly those of the file, byte for byte and in order. A change to the server that changes one
// byte on the wire fails here, and the diff shows which.
//
// The format, one line each (files are UTF-8, newline-terminated):
//   # text   a comment: what the scenario shows. Kept as written.
//   > json   a line the client sends, exactly as written (plus "\n").
//   < json   a line the server writes, exactly: what the server wrote after the `>` line above it and
//            before the next one (each client line is sent only once the server is idle again).
//   ---      the end of one connection and the start of the next (a new connection to the same server).
//   blank lines are ignored.
// Every `<` line must also be valid in its revision's JSON Schema (test/support/spec-validate.ts): the
// version in the `_meta` envelope of the client line it follows (2026-07-28), else the revision
// negotiated by initialize on that connection, else each handshake revision (before initialize).
//
// To regenerate after a deliberate change to the wire, run with MCPWIRE_UPDATE_GOLDEN=1
// (`MCPWIRE_UPDATE_GOLDEN=1 node scripts/run-tests.mjs test/golden`): each file is rewritten with the
// server's lines in place of its `<` lines, everything else kept, and the test passes. Review the diff of
// testdata/ before committing it. A new scenario can be written as comments and `>` lines only, and filled
// in that way.
//
// Nothing in a scenario may vary between runs (no clock, no random ids): the transcripts compare exactly
// and mask nothing.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createTwoFilesPatch } from 'diff';
import type { ServerSession } from '../../src/protocol/server-session.js';
import { LATEST_STATELESS_VERSION, MetaKey, STATELESS_VERSIONS } from '../../src/protocol/stateless.js';
import { McpServer } from '../../src/server/server.js';
import { StreamTransport } from '../../src/transport/stream.js';
import { cites } from '../support/requirements.js';
import { HANDSHAKE_REVISIONS, messageErrors } from '../support/spec-validate.js';

const TESTDATA = path.join(import.meta.dirname, 'testdata');
const UPDATE = process.env.MCPWIRE_UPDATE_GOLDEN === '1';
const CONNECTION_BREAK = '---';

/** The server every transcript talks to: a little of everything, all of it deterministic. */
function goldenServer(): McpServer {
  const server = new McpServer({ name: 'golden', version: '1.0.0', title: 'Golden server' });
  server.tool(
    {
      name: 'echo',
      title: 'Echo',
      description: 'Answers with its text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/echo.png', mimeType: 'image/png' }],
    },
    (args) => ({ content: [{ type: 'text', text: String(args.text) }] }),
  );
  server.tool(
    {
      name: 'add',
      description: 'Adds two numbers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    },
    (args) => {
      const sum = Number(args.a) + Number(args.b);
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    },
  );
  server.tool({ name: 'chatty', description: 'Logs a warning, then answers' }, (_args, ctx) => {
    ctx.log('warning', 'a warning line', 'chatty');
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.resource({ uri: 'memo://greeting', name: 'greeting', mimeType: 'text/plain' }, (uri) => [
    { uri, mimeType: 'text/plain', text: 'Hello from a resource' },
  ]);
  server.prompt(
    { name: 'greet', description: 'Greets someone', arguments: [{ name: 'name', required: true }] },
    (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Greet ${args.name}` } }] }),
  );
  return server;
}

/** One connection: the client's bytes in, the server's bytes out, through the server's stream transport. */
class Peer {
  private readonly input = new PassThrough();
  private readonly transport: StreamTransport;
  private readonly session: ServerSession;
  private written = '';

  constructor(server: McpServer) {
    const output = new PassThrough();
    output.setEncoding('utf8').on('data', (text: string) => {
      this.written += text;
    });
    this.transport = new StreamTransport(this.input, output);
    this.session = server.connect(this.transport);
  }

  /** Sends one client line and returns the lines the server wrote for it, once it is idle again. */
  async send(line: string): Promise<string[]> {
    this.input.write(`${line}\n`);
    await this.settle();
    return this.take();
  }

  /** Closes the connection; anything the server writes while closing is returned too. */
  async close(): Promise<string[]> {
    await this.session.close();
    await turn();
    return this.take();
  }

  private async settle(): Promise<void> {
    // A turn for the input stream to deliver the line, then the handlers, then the writer, then a turn for
    // the output stream to hand over what was written; twice, for answers that unblock more work.
    for (let round = 0; round < 2; round++) {
      await turn();
      await this.session.connection.whenIdle();
      await this.transport.flush();
    }
    await turn();
  }

  private take(): string[] {
    const lines = this.written.split('\n');
    // Whatever follows the last newline is kept whole as a line of its own, so that it shows in the diff.
    const rest = lines.pop()!;
    this.written = '';
    return rest === '' ? lines : [...lines, rest];
  }
}

function isModernVersion(version: string): boolean {
  return (STATELESS_VERSIONS as readonly string[]).includes(version);
}

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** What the lines of one connection must be valid in: its revision, as the module comment says. */
class Revisions {
  private negotiated: string | undefined;
  private readonly methods = new Map<unknown, string>();

  /** Notes the client's line: the methods of its requests, by id, and the revision its server lines use. */
  client(payload: unknown): string[] {
    let stateless: string | undefined;
    for (const item of Array.isArray(payload) ? payload : [payload]) {
      const m = item as { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown> } };
      if (typeof m?.method === 'string' && m.id !== undefined) this.methods.set(m.id, m.method);
      const version = m?.params?._meta?.[MetaKey.ProtocolVersion];
      if (typeof version === 'string') stateless = version;
    }
    // A version the server does not speak is refused in the latest stateless revision it does speak.
    if (stateless) return [isModernVersion(stateless) ? stateless : LATEST_STATELESS_VERSION];
    return this.negotiated ? [this.negotiated] : [...HANDSHAKE_REVISIONS];
  }

  /** Notes a server line: the answer to initialize names the revision of what follows. */
  server(message: unknown, revisions: string[]): string[] {
    const m = message as { id?: unknown; result?: { protocolVersion?: unknown } };
    if (this.methodOf(m?.id) === 'initialize' && typeof m.result?.protocolVersion === 'string') {
      this.negotiated = m.result.protocolVersion;
      return [this.negotiated];
    }
    return revisions;
  }

  methodOf(id: unknown): string | undefined {
    return this.methods.get(id);
  }
}

interface Run {
  /** The transcript as the server actually answered it. */
  text: string;
  /** Why server lines are not valid in their revision, with the line. */
  invalid: string[];
}

/** Plays the client's lines of `transcript` and writes it out again with the server's actual lines. */
async function play(transcript: string): Promise<Run> {
  const server = goldenServer();
  const out: string[] = [];
  const invalid: string[] = [];
  let peer = new Peer(server);
  let revisions = new Revisions();

  const record = async (lines: string[], checkIn: string[]) => {
    for (const line of lines) {
      out.push(`< ${line}`);
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        invalid.push(`not JSON: ${line}`);
        continue;
      }
      for (const revision of revisions.server(message, checkIn)) {
        const errors = await messageErrors(revision, message, (id) => revisions.methodOf(id));
        if (errors.length > 0) invalid.push(`invalid in ${revision}: ${line}\n  ${errors.join('\n  ')}`);
      }
    }
  };

  for (const line of transcript.split('\n')) {
    if (line.startsWith('< ')) continue;
    if (line === CONNECTION_BREAK) {
      await record(await peer.close(), [...HANDSHAKE_REVISIONS]);
      peer = new Peer(server);
      revisions = new Revisions();
      out.push(line);
    } else if (line.startsWith('> ')) {
      out.push(line);
      const sent = line.slice(2);
      let payload: unknown;
      try {
        payload = JSON.parse(sent);
      } catch {
        // A client line that is not JSON is sent all the same; its answer is checked in the connection's revision.
      }
      const checkIn = revisions.client(payload);
      await record(await peer.send(sent), checkIn);
    } else if (line === '' || line.startsWith('#')) {
      out.push(line);
    } else {
      throw new Error(`a transcript line must start with "#", "> " or "< ", be "---" or be blank: ${line}`);
    }
  }
  await record(await peer.close(), [...HANDSHAKE_REVISIONS]);
  return { text: out.join('\n'), invalid };
}

const files = readdirSync(TESTDATA)
  .filter((name) => name.endsWith('.txt'))
  .sort();

describe('golden wire transcripts (test/golden/testdata)', () => {
  it('has transcripts to play', () => {
    assert.ok(files.length > 0, `no .txt files in ${TESTDATA}`);
  });

  for (const name of files) {
    it(cites([
      'stdio.newline-delimited',
      'messages.schema-valid',
    ])`${name}: the server writes exactly the lines of the transcript, each valid in its revision`, async () => {
      const file = path.join(TESTDATA, name);
      const expected = readFileSync(file, 'utf8');
      const actual = await play(expected);
      if (UPDATE) {
        if (actual.text !== expected) writeFileSync(file, actual.text);
      } else if (actual.text !== expected) {
        const patch = createTwoFilesPatch(
          `${name} (expected)`,
          `${name} (the server)`,
          expected,
          actual.text,
        );
        assert.fail(
          `the server's lines differ from ${path.relative(process.cwd(), file)}; if the change is deliberate, ` +
            `regenerate with MCPWIRE_UPDATE_GOLDEN=1 and review the diff:\n${patch}`,
        );
      }
      assert.deepEqual(actual.invalid, [], `server lines of ${name} that their revision's schema refuses`);
    });
  }
});
