// Supervision of the host's servers: one client, one process and one pipe per configured server, started
// in parallel, watched with health pings, restarted with back-off after a crash, and ended so that no
// process outlives the host. What the servers offer is kept per entry, for the host's routing.

import { McpClient, type McpClientOptions } from '../client/client.js';
import type { ConnectionProblem } from '../jsonrpc/connection.js';
import { type CloseReason, ConnectionClosedError, formatCloseReason } from '../jsonrpc/errors.js';
import type { Transport } from '../jsonrpc/transport.js';
import type { Prompt, Resource, Tool } from '../protocol/types.js';
import { ChildProcessTransport } from '../transport/child-process.js';
import type { HttpAuthorization } from '../transport/http/auth/oauth-client.js';
import { FallbackHttpTransport } from '../transport/http/fallback-transport.js';
import { LegacySseClientTransport } from '../transport/http/legacy-sse-transport.js';
import {
  type ExponentialRetryOptions,
  exponentialRetry,
  neverRetry,
  type RetryPolicy,
} from '../transport/retry.js';
import { type HostConfig, isRemote, type ServerConfig } from './config.js';
import type { Naming } from './naming.js';

export type ServerState = 'starting' | 'ready' | 'failed' | 'restarting' | 'stopped';

export interface ServerStatus {
  name: string;
  state: ServerState;
  /** Why it failed or last crashed, and what to do about it when something can be done. */
  error?: string;
  hint?: string;
  pid?: number;
  /** Where a remote server is, and which transport it turned out to speak. */
  url?: string;
  transport?: 'stdio' | 'streamable-http' | 'sse';
  restarts: number;
  tools: number;
}

export type HostEvent =
  | { type: 'ready'; server: string }
  | { type: 'failed'; server: string; error: string }
  | { type: 'crashed'; server: string; reason: string }
  | { type: 'restarting'; server: string; attempt: number; delayMs: number }
  | { type: 'list-changed'; server: string; list: 'tools' | 'resources' | 'prompts' }
  | { type: 'log'; server: string; level: string; data: unknown }
  /** The server broke the protocol (a line on stdout that is not JSON-RPC, say), as it happened. */
  | { type: 'problem'; server: string; problem: ConnectionProblem };

/** The default way a crashed server is restarted: exponential back-off. */
export type RestartPolicy = ExponentialRetryOptions;

export interface HostOptions {
  clientInfo?: { name: string; version: string };
  /**
   * Authorizes a remote server's requests (an OAuthClient with stored tokens, say). Not asked for a
   * server whose configuration sets an Authorization header itself: the configured token wins.
   */
  authorization?: (server: string, url: string) => HttpAuthorization | undefined;
  /** How names of tools and prompts are made unique: "<server>__<name>" by default. */
  naming?: Naming;
  /** Milliseconds between health pings (30 000; 0 turns them off). */
  healthInterval?: number;
  /** How long a server may take to answer initialize, in ms (30 000). */
  startTimeout?: number;
  /** How a crashed server is restarted: exponential back-off (RestartPolicy) by default, any RetryPolicy, or false for never. */
  restart?: RestartPolicy | RetryPolicy | false;
  /** Client callbacks (sampling, elicitation, roots, timeouts) shared by every server's client. */
  client?: Partial<Omit<McpClientOptions, 'name' | 'version'>>;
  /** The servers' stderr: kept (default), copied to ours, or handed to a function with the server's name. */
  stderr?: 'pipe' | 'inherit' | ((server: string, text: string) => void);
  onEvent?: (event: HostEvent) => void;
  /**
   * Which lists each server is asked for when it starts (and restarts): all three unless told. A command
   * that calls one tool needs the tools alone; listing every resource of a big root first cost it dozens
   * of round trips.
   */
  lists?: ReadonlyArray<ListKind>;
  /**
   * Wraps the transport each server gets, each time it starts: to watch its wire (mcpwire inspect) without
   * taking part in it. The wrapper must pass everything through.
   */
  wrapTransport?: (server: string, transport: Transport) => Transport;
  /**
   * Whether list changes are followed (list_changed notifications, and on 2026-07-28 the
   * subscriptions/listen stream that carries them). True unless told; a one-shot command has no use for it.
   */
  watchLists?: boolean;
}

export type ListKind = 'tools' | 'prompts' | 'resources';

export interface ServerEntry {
  name: string;
  config: ServerConfig;
  state: ServerState;
  client: McpClient | undefined;
  transport: Transport | undefined;
  error: string | undefined;
  hint: string | undefined;
  restarts: number;
  attempt: number;
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  restartTimer: ReturnType<typeof setTimeout> | undefined;
}

export class Supervisor {
  readonly entries = new Map<string, ServerEntry>();
  private healthTimer: ReturnType<typeof setInterval> | undefined;
  private stopping = false;
  private readonly restartPolicy: RetryPolicy;

  constructor(
    config: HostConfig,
    private readonly options: HostOptions = {},
  ) {
    const restart = options.restart;
    this.restartPolicy =
      restart === false ? neverRetry : restart && 'delay' in restart ? restart : exponentialRetry(restart);
    for (const [name, serverConfig] of Object.entries(config.servers)) {
      if (serverConfig.disabled) continue;
      this.entries.set(name, newEntry(name, serverConfig));
    }
  }

  /**
   * Adds a server once the others run (a person adds one in mcpwire inspect) and starts it. A failed start
   * is its status, as in start(). A name already taken is refused before anything starts, unless its server
   * failed: then the new one replaces it (the same server again, with what it lacked, say a header).
   */
  async add(name: string, config: ServerConfig): Promise<ServerStatus> {
    if (this.stopping) throw new Error('the host is shutting down');
    const old = this.entries.get(name);
    if (old && old.state !== 'failed') throw new Error(`there is a server named "${name}" already`);
    if (old?.restartTimer) clearTimeout(old.restartTimer);
    await old?.client?.close().catch(() => {});
    const entry = newEntry(name, config);
    this.entries.set(name, entry);
    await this.startServer(entry);
    return this.status().find((s) => s.name === name)!;
  }

  /** Starts every server in parallel. A server that fails is reported by name; the others go on. */
  async start(): Promise<ServerStatus[]> {
    await Promise.all([...this.entries.values()].map((entry) => this.startServer(entry)));
    const interval = this.options.healthInterval ?? 30_000;
    if (interval > 0 && !this.healthTimer) {
      this.healthTimer = setInterval(() => void this.checkHealth(), interval);
      this.healthTimer.unref();
    }
    return this.status();
  }

  /**
   * Starts one server again, now: after a crash when restarts are off (the command line's shell), or to
   * pick up a changed server. The old process (or session) is ended first.
   */
  async restart(name: string): Promise<ServerStatus> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no server named "${name}"`);
    if (entry.restartTimer) clearTimeout(entry.restartTimer);
    entry.restartTimer = undefined;
    const old = entry.client;
    entry.client = undefined;
    await old?.close().catch(() => {});
    entry.restarts++;
    await this.startServer(entry);
    return this.status().find((s) => s.name === name)!;
  }

  status(): ServerStatus[] {
    return [...this.entries.values()].map((e) => {
      const status: ServerStatus = {
        name: e.name,
        state: e.state,
        restarts: e.restarts,
        tools: e.tools.length,
      };
      if (e.error !== undefined) status.error = e.error;
      if (e.hint !== undefined) status.hint = e.hint;
      if (
        e.transport instanceof ChildProcessTransport &&
        e.transport.pid !== undefined &&
        e.state === 'ready'
      )
        status.pid = e.transport.pid;
      if (isRemote(e.config)) status.url = e.config.url;
      if (e.state === 'ready') status.transport = transportKind(e.transport);
      return status;
    });
  }

  /** Stops health checks and restarts, and ends every server. No process outlives this. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    if (this.healthTimer) clearInterval(this.healthTimer);
    await Promise.all(
      [...this.entries.values()].map(async (entry) => {
        if (entry.restartTimer) clearTimeout(entry.restartTimer);
        entry.state = 'stopped';
        await entry.client?.close().catch(() => {});
      }),
    );
  }

  private async startServer(entry: ServerEntry): Promise<void> {
    entry.state = entry.restarts > 0 ? 'restarting' : 'starting';
    const opened = this.openTransport(entry);
    const transport = this.options.wrapTransport?.(entry.name, opened) ?? opened;
    const client = new McpClient({
      name: this.options.clientInfo?.name ?? 'mcpwire-host',
      version: this.options.clientInfo?.version ?? '0.0.0',
      ...this.options.client,
      onListChanged:
        this.options.watchLists === false
          ? undefined
          : (list) => {
              this.options.onEvent?.({ type: 'list-changed', server: entry.name, list });
              void this.refreshLists(entry, client);
              this.options.client?.onListChanged?.(list);
            },
      onLog: (message) => {
        this.options.onEvent?.({ type: 'log', server: entry.name, level: message.level, data: message.data });
        this.options.client?.onLog?.(message);
      },
      onProblem: (problem) => {
        this.options.onEvent?.({ type: 'problem', server: entry.name, problem });
        this.options.client?.onProblem?.(problem);
      },
    });
    entry.client = client;
    entry.transport = opened;
    client.onClose((reason) => this.serverClosed(entry, client, reason));
    const timeout = this.options.startTimeout ?? 30_000;
    try {
      await client.connect(transport, { timeout });
      await this.refreshLists(entry, client, timeout);
      entry.state = 'ready';
      entry.error = undefined;
      entry.hint = undefined;
      entry.attempt = 0;
      this.options.onEvent?.({ type: 'ready', server: entry.name });
    } catch (error) {
      const closed = client.closed;
      entry.state = 'failed';
      // The close reason says more only when the connection closing is what failed (a crash at start-up);
      // a refused handshake closes the connection too, but its own error is the one that says why.
      entry.error =
        closed && error instanceof ConnectionClosedError
          ? formatCloseReason(closed)
          : (error as Error).message;
      entry.hint = closed?.hint;
      this.options.onEvent?.({ type: 'failed', server: entry.name, error: entry.error });
      await client.close().catch(() => {});
    }
  }

  /** A child process for a stdio entry; for a remote one, Streamable HTTP (or the older HTTP+SSE). */
  private openTransport(entry: ServerEntry): Transport {
    const config = entry.config;
    if (isRemote(config)) {
      if (config.type === 'sse') return new LegacySseClientTransport(config.url, { headers: config.headers });
      const configured = Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization');
      const authorization = configured ? undefined : this.options.authorization?.(entry.name, config.url);
      return new FallbackHttpTransport(config.url, { headers: config.headers, authorization });
    }
    const stderrOption = this.options.stderr;
    return new ChildProcessTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd,
      stderr: typeof stderrOption === 'function' ? (text) => stderrOption(entry.name, text) : stderrOption,
    });
  }

  private async refreshLists(entry: ServerEntry, client: McpClient, timeout?: number): Promise<void> {
    const capabilities = client.serverCapabilities ?? {};
    const options = timeout === undefined ? undefined : { timeout };
    const wanted = new Set<ListKind>(this.options.lists ?? ['tools', 'prompts', 'resources']);
    const [tools, prompts, resources] = await Promise.all([
      capabilities.tools && wanted.has('tools') ? client.listAllTools(options) : [],
      capabilities.prompts && wanted.has('prompts') ? client.listAllPrompts(options) : [],
      capabilities.resources && wanted.has('resources')
        ? client.listAllResources(options).catch(() => [])
        : [],
    ]);
    if (entry.client !== client) return;
    entry.tools = tools;
    entry.prompts = prompts;
    entry.resources = resources;
  }

  private serverClosed(entry: ServerEntry, client: McpClient, reason: CloseReason): void {
    // Only a ready server crashes: a close while it starts is that start failing, which startServer's own
    // catch reports and the restart loop retries. Taking it here too started a second restart loop beside
    // the first, and the two went on replacing each other's client.
    if (entry.client !== client || this.stopping || entry.state !== 'ready') return;
    entry.state = 'failed';
    entry.error = formatCloseReason(reason);
    entry.hint = reason.hint;
    this.options.onEvent?.({ type: 'crashed', server: entry.name, reason: entry.error });
    this.scheduleRestart(entry);
  }

  private scheduleRestart(entry: ServerEntry): void {
    if (this.stopping) return;
    const delayMs = this.restartPolicy.delay(entry.attempt + 1);
    if (delayMs === undefined) return;
    entry.attempt++;
    entry.state = 'restarting';
    this.options.onEvent?.({ type: 'restarting', server: entry.name, attempt: entry.attempt, delayMs });
    entry.restartTimer = setTimeout(() => {
      entry.restartTimer = undefined;
      if (this.stopping) return;
      entry.restarts++;
      void this.startServer(entry).then(() => {
        if (entry.state === 'failed') this.scheduleRestart(entry);
      });
    }, delayMs);
  }

  /** A server that does not answer a ping in time is treated as crashed: ended and restarted. */
  private async checkHealth(): Promise<void> {
    await Promise.all(
      [...this.entries.values()].map(async (entry) => {
        const client = entry.client;
        if (entry.state !== 'ready' || !client) return;
        try {
          await client.ping({ timeout: 10_000 });
        } catch {
          if (entry.client !== client || this.stopping) return;
          await client.close().catch(() => {});
        }
      }),
    );
  }
}

function newEntry(name: string, config: ServerConfig): ServerEntry {
  return {
    name,
    config,
    state: 'stopped',
    client: undefined,
    transport: undefined,
    error: undefined,
    hint: undefined,
    restarts: 0,
    attempt: 0,
    tools: [],
    prompts: [],
    resources: [],
    restartTimer: undefined,
  };
}

function transportKind(transport: Transport | undefined): ServerStatus['transport'] {
  if (transport instanceof FallbackHttpTransport) return transport.kind;
  if (transport instanceof LegacySseClientTransport) return 'sse';
  return 'stdio';
}
