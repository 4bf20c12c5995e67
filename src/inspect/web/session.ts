// One inspector session: the servers of a host, watched on the wire, and what the page asks of them. Each
// server's transport is wrapped so that a wire monitor sees every message both ways (the faults `trace`
// flags, told as they happen); a server's requests for sampling and elicitation wait here until the person
// answers them on the page; calls the page starts can be cancelled from it.

import type { ClientAnswerCallbacks } from '../../client/answers.js';
import { ConfigError, type HostConfig, parseConfig } from '../../host/config.js';
import type { HostEvent, McpHost } from '../../host/host.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { McpwireError } from '../../jsonrpc/local-errors.js';
import type { Transport } from '../../jsonrpc/transport.js';
import { LOGGING_LEVELS } from '../../protocol/logging.js';
import type { CompleteRequestParams, LoggingLevel, ResourceTemplate, Root } from '../../protocol/types.js';
import { prepareSchema } from '../../server/schema.js';
import { WireMonitor } from '../wire-monitor.js';
import { Feed } from './feed.js';

/** What the page is told besides the feed. */
export type SessionEvent =
  | { type: 'state' }
  | { type: 'ask'; ask: Ask }
  | { type: 'asked'; id: string }
  | { type: 'progress'; callId: string; progress: number; total?: number; message?: string }
  | { type: 'updated'; server: string; uri: string };

/** A request of a server that waits for the person: an elicitation or a sampling request. */
export interface Ask {
  id: string;
  server: string;
  kind: 'elicitation' | 'sampling';
  params: unknown;
}

/** Runs the doctor's checks on one server (the command line hands it in: inspect does not run doctor). */
export type DoctorRunner = (server: string) => Promise<unknown>;

export class InspectSession {
  readonly feed = new Feed();
  private host: McpHost | undefined;
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private readonly asks = new Map<string, { ask: Ask; resolve: (result: unknown) => void }>();
  private readonly calls = new Map<string, AbortController>();
  private readonly templates = new Map<string, ResourceTemplate[]>();
  /** Which server sent a request's params: its answer callback is told only the params. */
  private readonly askedBy = new WeakMap<object, string>();
  private readonly subscribed = new Set<string>();
  private roots: Root[] = [];
  private level: LoggingLevel = 'info';
  private nextAsk = 1;

  constructor(private readonly doctorRunner?: DoctorRunner) {}

  /** The host's clients answer the servers' requests through these. */
  readonly answers: ClientAnswerCallbacks = {
    onElicitation: (params) => this.ask('elicitation', params) as never,
    onSampling: async (params) => {
      const answer = (await this.ask('sampling', params)) as { action?: string };
      // A person who will not write a completion rejects the request, as the specification words it.
      if (answer.action === 'decline' || answer.action === 'cancel')
        throw new JsonRpcError(ErrorCode.UserRejected, 'the person declined the sampling request');
      return answer as never;
    },
    elicitationUrl: true,
    roots: () => this.roots,
  };

  /** Wraps a server's transport: a wire monitor sees every message, and the feed gets what it says. */
  readonly wrapTransport = (server: string, inner: Transport): Transport => {
    const monitor = new WireMonitor({
      message: (message) => {
        this.feed.message(server, message);
        this.noticeMessage(server, message.from, message.payload);
      },
      problem: (problem) => this.feed.problem(server, problem),
    });
    return {
      streamPerRequest: inner.streamPerRequest,
      setProtocolVersion: inner.setProtocolVersion?.bind(inner),
      start: (handlers) =>
        inner.start({
          inputEnded: () => handlers.inputEnded?.(),
          held: (holding) => handlers.held?.(holding),
          message: (payload, info) => {
            monitor.serverValue(payload);
            handlers.message(payload, info);
          },
          frameError: (error) => {
            this.feed.problem(server, {
              kind: error.kind === 'parse' ? 'not-json' : error.kind,
              from: 'server',
              message:
                error.kind === 'parse'
                  ? 'the server wrote something that is not JSON; logs and prints belong on stderr'
                  : error.message,
              ...('excerpt' in error ? { bytes: error.excerpt } : {}),
            });
            handlers.frameError(error);
          },
          closed: (reason) => {
            monitor.serverExited(reason.message ?? 'closed the connection');
            handlers.closed(reason);
          },
        }),
      send: (payload, options) => {
        monitor.clientValue(payload);
        inner.send(payload, options);
      },
      flush: () => inner.flush(),
      close: () => inner.close(),
    };
  };

  /** What the host reports (a server ready, failed, crashed; a list changed). */
  readonly onHostEvent = (event: HostEvent): void => {
    if (event.type === 'log' || event.type === 'problem') return; // on the wire already
    const detail =
      event.type === 'failed'
        ? event.error
        : event.type === 'crashed'
          ? event.reason
          : event.type === 'list-changed'
            ? event.list
            : undefined;
    this.feed.host(event.server, event.type, detail);
    if (event.type === 'list-changed' && event.list === 'resources') this.templates.delete(event.server);
    this.emit({ type: 'state' });
  };

  readonly onStderr = (server: string, text: string): void => this.feed.stderr(server, text);

  attach(host: McpHost): void {
    this.host = host;
    this.emit({ type: 'state' });
  }

  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Everything the page shows besides the feed: servers, their lists, the asks waiting, the roots. */
  async state(): Promise<Record<string, unknown>> {
    const host = this.requireHost();
    const servers = await Promise.all(
      host.status().map(async (status) => {
        if (status.state !== 'ready') return status;
        const client = host.client(status.name);
        return {
          ...status,
          serverInfo: client.serverInfo,
          protocolVersion: client.protocolVersion,
          era: client.era,
          capabilities: client.serverCapabilities,
          instructions: client.instructions,
          templates: await this.templatesOf(status.name),
        };
      }),
    );
    return {
      servers,
      tools: host.tools(),
      prompts: host.prompts(),
      resources: host.resources(),
      roots: this.roots,
      level: this.level,
      subscribed: [...this.subscribed],
      asks: [...this.asks.values()].map((a) => a.ask),
      doctor: this.doctorRunner !== undefined,
      lastSeq: this.feed.lastSeq,
    };
  }

  async call(body: {
    server: string;
    name: string;
    arguments?: Record<string, unknown>;
    callId?: string;
  }): Promise<unknown> {
    const client = this.requireHost().client(body.server);
    const controller = new AbortController();
    const callId = body.callId;
    if (callId) this.calls.set(callId, controller);
    try {
      const result = await client.callTool(body.name, body.arguments ?? {}, {
        signal: controller.signal,
        onProgress: callId
          ? (p) =>
              this.emit({
                type: 'progress',
                callId,
                progress: p.progress,
                ...(p.total !== undefined ? { total: p.total } : {}),
                ...(p.message !== undefined ? { message: p.message } : {}),
              })
          : undefined,
      });
      const tool = this.requireHost()
        .tools()
        .find((t) => t.server === body.server && t.originalName === body.name);
      return { result, output: await checkOutput(tool?.outputSchema, result.structuredContent, body.name) };
    } finally {
      if (callId) this.calls.delete(callId);
    }
  }

  cancel(callId: string): boolean {
    const controller = this.calls.get(callId);
    controller?.abort(new McpwireError('REQUEST_CANCELLED', 'cancelled from the inspector page'));
    return controller !== undefined;
  }

  read(body: { server: string; uri: string }): Promise<unknown> {
    return this.requireHost().readResource(body.uri, body.server);
  }

  prompt(body: { server: string; name: string; arguments?: Record<string, string> }): Promise<unknown> {
    return this.requireHost()
      .client(body.server)
      .getPrompt(body.name, body.arguments ?? {});
  }

  complete(body: { server: string } & CompleteRequestParams): Promise<unknown> {
    const { server, ...params } = body;
    return this.requireHost().client(server).complete(params);
  }

  async setSubscribed(body: { server: string; uri: string; subscribed: boolean }): Promise<unknown> {
    const client = this.requireHost().client(body.server);
    const key = `${body.server} ${body.uri}`;
    if (body.subscribed) {
      await client.subscribeResource(body.uri);
      this.subscribed.add(key);
    } else {
      await client.unsubscribeResource(body.uri);
      this.subscribed.delete(key);
    }
    this.emit({ type: 'state' });
    return {};
  }

  /** The person's answer to an elicitation or sampling request. */
  answer(body: { id: string; result: unknown }): boolean {
    const waiting = this.asks.get(body.id);
    if (!waiting) return false;
    this.asks.delete(body.id);
    waiting.resolve(body.result);
    this.emit({ type: 'asked', id: body.id });
    return true;
  }

  setRoots(roots: Root[]): void {
    this.roots = roots;
    for (const status of this.requireHost().status()) {
      if (status.state === 'ready') this.requireHost().client(status.name).notifyRootsChanged();
    }
    this.emit({ type: 'state' });
  }

  /** Asks every server that logs (or those named) for messages from `level` up. */
  async setLevel(level: string, only?: string[]): Promise<void> {
    if (!(LOGGING_LEVELS as readonly string[]).includes(level))
      throw new McpwireError('INSPECT_REQUEST', `the level is one of ${LOGGING_LEVELS.join(', ')}`);
    const wanted = level as LoggingLevel;
    const host = this.requireHost();
    await Promise.all(
      host
        .status()
        .filter((s) => s.state === 'ready' && (!only || only.includes(s.name)))
        .map(async (s) => {
          const client = host.client(s.name);
          if (client.era === 'handshake' && !client.serverCapabilities?.logging) return;
          await client.setLoggingLevel(wanted).catch(() => {});
        }),
    );
    // Only now: the state the page reads says the level once every server was told it.
    this.level = wanted;
    this.emit({ type: 'state' });
  }

  doctor(server: string): Promise<unknown> {
    if (!this.doctorRunner) throw new McpwireError('INSPECT_REQUEST', 'the doctor is not available here');
    return this.doctorRunner(server);
  }

  /**
   * Adds servers the person names on the page, as a configuration's "mcpServers" table, and starts them.
   * Only the page's own requests (token, Host, Origin) get here: whoever has the token may start commands,
   * as whoever ran inspect may. ${VAR} is expanded from this process's environment, as in --config.
   */
  async add(table: Record<string, unknown>): Promise<unknown> {
    const host = this.requireHost();
    let config: HostConfig;
    try {
      config = parseConfig({ mcpServers: table }, process.env, process.cwd(), 'the page');
    } catch (error) {
      if (error instanceof ConfigError) throw new McpwireError('INSPECT_REQUEST', error.message);
      throw error;
    }
    const names = Object.keys(config.servers);
    if (names.length === 0) throw new McpwireError('INSPECT_REQUEST', 'name at least one server');
    const statuses = await Promise.all(names.map((name) => host.add(name, config.servers[name]!)));
    // Asked for logs from the level the page shows, as the servers of the command line were.
    await this.setLevel(this.level, names);
    return { servers: statuses };
  }

  async restart(server: string): Promise<unknown> {
    this.templates.delete(server);
    const status = await this.requireHost().restart(server);
    this.emit({ type: 'state' });
    return status;
  }

  /** Every ask still waiting is declined: the page went away for good, or the inspector ends. */
  close(): void {
    for (const [id, waiting] of this.asks) {
      this.asks.delete(id);
      waiting.resolve({ action: 'cancel' });
    }
    for (const controller of this.calls.values()) controller.abort();
  }

  private ask(kind: Ask['kind'], params: object): Promise<unknown> {
    const id = String(this.nextAsk++);
    // Who asked is known from the wire; should the params have been copied on the way, with one server
    // it is that one.
    const servers = this.host?.status() ?? [];
    const only = servers.length === 1 ? servers[0]!.name : '';
    const ask: Ask = { id, server: this.askedBy.get(params) ?? only, kind, params };
    return new Promise((resolve) => {
      this.asks.set(id, { ask, resolve });
      this.emit({ type: 'ask', ask });
    });
  }

  /** What the page hears of on top of the feed: resource updates, and which server asks what. */
  private noticeMessage(server: string, from: 'client' | 'server', payload: unknown): void {
    if (from !== 'server' || typeof payload !== 'object' || payload === null) return;
    const { method, params } = payload as { method?: unknown; params?: unknown };
    if (typeof params === 'object' && params !== null) this.askedBy.set(params, server);
    // A 2026-07-28 server asks inside a result (input_required): each request's params, by who asked.
    const inputRequests = (payload as { result?: { inputRequests?: unknown } }).result?.inputRequests;
    if (typeof inputRequests === 'object' && inputRequests !== null) {
      for (const request of Object.values(inputRequests)) {
        const asked = (request as { params?: unknown } | null)?.params;
        if (typeof asked === 'object' && asked !== null) this.askedBy.set(asked, server);
      }
    }
    if (method === 'notifications/resources/updated') {
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri === 'string') this.emit({ type: 'updated', server, uri });
    }
  }

  private async templatesOf(server: string): Promise<ResourceTemplate[]> {
    const cached = this.templates.get(server);
    if (cached) return cached;
    const client = this.requireHost().client(server);
    const templates = client.serverCapabilities?.resources
      ? await client.listAllResourceTemplates().catch(() => [])
      : [];
    this.templates.set(server, templates);
    return templates;
  }

  private emit(event: SessionEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private requireHost(): McpHost {
    if (!this.host) throw new McpwireError('NOT_CONNECTED', 'the servers are still starting');
    return this.host;
  }
}

/** Whether structuredContent matches the tool's output schema; undefined when there is nothing to check. */
async function checkOutput(
  schema: unknown,
  structured: unknown,
  tool: string,
): Promise<{ valid: boolean; issues: string[] } | undefined> {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (structured === undefined)
    return { valid: false, issues: ['the tool has an output schema but returned no structuredContent'] };
  const result = await prepareSchema(schema as Record<string, unknown>, 'output', tool).validate(structured);
  return result.ok ? { valid: true, issues: [] } : { valid: false, issues: result.issues };
}
