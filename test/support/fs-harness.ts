// Shared by the filesystem server's tests: temporary fixture trees, an in-process session driven by a raw
// JSON-RPC Connection acting as the client, and JSON Schema validation (tools' outputSchemas and the
// official MCP schema of a revision).

import { readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Connection } from '../../src/jsonrpc/connection.js';
import type { JsonRpcError } from '../../src/jsonrpc/errors.js';
import type { McpServer } from '../../src/server/server.js';
import { createFsServer, type FsServerOptions } from '../../src/servers/fs/index.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { StreamTransport } from '../../src/transport/stream.js';
import { requestError } from './request-error.js';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const BIN = path.join(REPO_ROOT, 'bin', 'mcpwire.js');
export const PACKAGE_VERSION = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** A fresh directory under the system's temporary directory, as a real path (macOS links /tmp). */
export async function makeTempDir(prefix = 'mcpwire-fs-'): Promise<string> {
  return realpath(await mkdtemp(path.join(tmpdir(), prefix)));
}

export async function removeDir(directory: string): Promise<void> {
  await rm(directory, { recursive: true, force: true });
}

export interface ToolResult {
  content: Array<Record<string, unknown> & { type: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface Notice {
  method: string;
  params: unknown;
}

export interface SessionOptions extends FsServerOptions {
  /** Capabilities the client declares in initialize (none by default). */
  clientCapabilities?: Record<string, unknown>;
  /** Answers roots/list from the server (registered when given). */
  listRoots?: () => unknown;
  protocolVersion?: string;
  /**
   * `memory` (default): an in-memory pair, messages handed over as objects. `stream`: two StreamTransports
   * over byte streams, as on stdio (newline framing), so large values are written as they are read.
   */
  transport?: 'memory' | 'stream';
}

/** What the server wrote to its byte stream: the largest single write (a frame, or a piece of one). */
export interface ServerWrites {
  largest: number;
}

/** Two StreamTransports joined by byte streams, as a client and a server on stdio are. */
function streamPair(writes: ServerWrites): [StreamTransport, StreamTransport] {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const write = toClient.write.bind(toClient) as (data: string | Uint8Array, callback: () => void) => boolean;
  const serverOutput = {
    write(data: string | Uint8Array, callback: () => void) {
      writes.largest = Math.max(
        writes.largest,
        typeof data === 'string' ? Buffer.byteLength(data) : data.length,
      );
      return write(data, callback);
    },
    once: (event: 'drain', listener: () => void) => toClient.once(event, listener),
  };
  return [new StreamTransport(toClient, toServer), new StreamTransport(toServer, serverOutput)];
}

/** One client session with an fs server in this process, over an in-memory transport pair. */
export class FsSession {
  readonly notices: Notice[] = [];
  private readonly waiters: Array<{ test: (n: Notice) => boolean; resolve: (n: Notice) => void }> = [];

  private constructor(
    readonly client: Connection,
    readonly server: McpServer,
    readonly initializeResult: Record<string, unknown>,
    /** Over byte streams: what the server wrote (resettable). */
    readonly serverWrites: ServerWrites,
  ) {}

  static async start(options: SessionOptions = {}): Promise<FsSession> {
    const server = await createFsServer(options);
    const writes: ServerWrites = { largest: 0 };
    const [clientSide, serverSide] =
      options.transport === 'stream' ? streamPair(writes) : createInMemoryPair();
    server.connect(serverSide);
    const client = new Connection(clientSide, { timeout: 20_000 });
    if (options.listRoots) client.onRequest('roots/list', () => options.listRoots!());
    let session: FsSession | undefined;
    const early: Notice[] = [];
    client.onOtherNotification((method, params) => {
      const notice = { method, params };
      if (session) session.receive(notice);
      else early.push(notice);
    });
    client.start();
    const result = await client.request<Record<string, unknown>>('initialize', {
      protocolVersion: options.protocolVersion ?? '2025-11-25',
      capabilities: options.clientCapabilities ?? {},
      clientInfo: { name: 'fs-test', version: '1.0.0' },
    });
    client.notify('notifications/initialized');
    session = new FsSession(client, server, result, writes);
    for (const notice of early) session.receive(notice);
    return session;
  }

  private receive(notice: Notice): void {
    this.notices.push(notice);
    for (const waiter of [...this.waiters]) {
      if (waiter.test(notice)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(notice);
      }
    }
  }

  request<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    return this.client.request<T>(method, params);
  }

  callTool(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    return this.client.request<ToolResult>('tools/call', { name, arguments: args });
  }

  /** The JSON-RPC error a request fails with (fails the test if it succeeds). */
  requestError(method: string, params?: unknown): Promise<JsonRpcError> {
    return requestError(this.client, method, params);
  }

  /** Resolves with the first notification (already received or to come) that passes `test`. */
  waitForNotice(test: (n: Notice) => boolean, timeoutMs: number, what: string): Promise<Notice> {
    const seen = this.notices.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise<Notice>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no ${what} within ${timeoutMs} ms; received: ${JSON.stringify(this.notices)}`));
      }, timeoutMs);
      const waiter = {
        test,
        resolve: (n: Notice) => {
          clearTimeout(timer);
          resolve(n);
        },
      };
      this.waiters.push(waiter);
    });
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** The text of every text block of a tool result, joined by newlines. */
export function textOf(result: ToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => String(block.text))
    .join('\n');
}

// ---- JSON Schema ----

interface Validator {
  (value: unknown): boolean;
  errors?: Array<{ instancePath: string; message?: string }> | null;
}

const addFormats = addFormatsModule as unknown as (ajv: object) => void;

function describeErrors(validate: Validator): string {
  return JSON.stringify((validate.errors ?? []).slice(0, 5));
}

/** Errors of `value` under a tool's outputSchema (2020-12, the default dialect of MCP 2025-11-25). */
export function outputSchemaErrors(schema: Record<string, unknown>, value: unknown): string | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validate = ajv.compile(schema) as Validator;
  return validate(value) ? undefined : describeErrors(validate);
}

const specValidators = new Map<string, (name: string) => Validator>();

/** A validator for definition `name` of the official schema of protocol revision `revision`. */
export function specValidator(revision: string, name: string): Validator {
  let lookup = specValidators.get(revision);
  if (!lookup) {
    const file = path.join(REPO_ROOT, 'spec', 'mcp-schema', revision, 'schema.json');
    const { $schema: _drop, ...schema } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const modern = '$defs' in schema;
    const ajv = modern
      ? new Ajv2020({ strict: false, allErrors: true })
      : new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(schema, 'mcp');
    const defs = modern ? '$defs' : 'definitions';
    lookup = (definition) => {
      const validate = ajv.getSchema(`mcp#/${defs}/${definition}`) as Validator | undefined;
      if (!validate) throw new Error(`the ${revision} schema has no definition ${definition}`);
      return validate;
    };
    specValidators.set(revision, lookup);
  }
  return lookup(name);
}

/** Errors of `value` under definition `name` of a revision's schema, or undefined when it is valid. */
export function specErrors(revision: string, name: string, value: unknown): string | undefined {
  const validate = specValidator(revision, name);
  return validate(value) ? undefined : describeErrors(validate);
}
