// The multi-server host: one client, one process and one pipe per configured server. It starts them all
// in parallel, lists their tools, prompts and resources as one set with collision-free names, routes each
// call to its server, watches health, restarts a crashed server with back-off, and shuts everything down
// so that no process survives it.

import { type CallOptions, McpClient, type McpClientOptions } from '../client/client.js';
import { type CloseReason, ConnectionClosedError, formatCloseReason } from '../jsonrpc/errors.js';
import { McpwireError } from '../jsonrpc/local-errors.js';
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  Tool,
} from '../protocol/types.js';
import { ChildProcessTransport } from '../transport/child-process.js';
import type { HostConfig, ServerConfig } from './config.js';
import { type Naming, separatorNaming } from './naming.js';

export type ServerState = 'starting' | 'ready' | 'failed' | 'restarting' | 'stopped';

export interface ServerStatus {
  name: string;
  state: ServerState;
  /** Why it failed or last crashed. */
  error?: string;
  pid?: number;
  restarts: number;
  tools: number;
}

export type HostEvent =
  | { type: 'ready'; server: string }
  | { type: 'failed'; server: string; error: string }
  | { type: 'crashed'; server: string; reason: string }
  | { type: 'restarting'; server: string; attempt: number; delayMs: number }
  | { type: 'list-changed'; server: string; list: 'tools' | 'resources' | 'prompts' }
  | { type: 'log'; server: string; level: string; data: unknown };

export interface RestartPolicy {
  /** Attempts after a crash before giving up (5). */
  maxAttempts?: number;
  /** First delay in ms, doubled each attempt (500). */
  initialDelay?: number;
  maxDelay?: number;
}

export interface HostOptions {
  clientInfo?: { name: string; version: string };
  /** How names of tools and prompts are made unique: "<server>__<name>" by default. */
  naming?: Naming;
  /** Milliseconds between health pings (30 000; 0 turns them off). */
  healthInterval?: number;
  /** How long a server may take to answer initialize, in ms (30 000). */
  startTimeout?: number;
  /** false turns restarts off. */
  restart?: RestartPolicy | false;
  /** Client callbacks (sampling, elicitation, roots, timeouts) shared by every server's client. */
  client?: Partial<Omit<McpClientOptions, 'name' | 'version'>>;
  /** The servers' stderr: kept (default), copied to ours, or handed to a function with the server's name. */
  stderr?: 'pipe' | 'inherit' | ((server: string, text: string) => void);
  onEvent?: (event: HostEvent) => void;
}

export interface QualifiedTool extends Tool {
  /** The name the host lists and routes. */
  name: string;
  server: string;
  /** The server's own name for it. */
  originalName: string;
}

export interface QualifiedPrompt extends Prompt {
  server: string;
  originalName: string;
}

export interface QualifiedResource extends Resource {
  server: string;
}

interface ServerEntry {
  name: string;
  config: ServerConfig;
  state: ServerState;
  client: McpClient | undefined;
  transport: ChildProcessTransport | undefined;
  error: string | undefined;
  restarts: number;
  attempt: number;
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  restartTimer: ReturnType<typeof setTimeout> | undefined;
}

/** A call named a server or tool that the host does not have. */
export class RoutingError extends McpwireError {
  override readonly name = 'RoutingError';
  constructor(message: string) {
    super('ROUTING', message);
  }
}

export class McpHost {
  private readonly entries = new Map<string, ServerEntry>();
  private readonly naming: Naming;
  private healthTimer: ReturnType<typeof setInterval> | undefined;
  private stopping = false;

  constructor(
    config: HostConfig,
    private readonly options: HostOptions = {},
  ) {
    this.naming = options.naming ?? separatorNaming();
    for (const [name, serverConfig] of Object.entries(config.servers)) {
      if (serverConfig.disabled) continue;
      this.entries.set(name, {
        name,
        config: serverConfig,
        state: 'stopped',
        client: undefined,
        transport: undefined,
        error: undefined,
        restarts: 0,
        attempt: 0,
        tools: [],
        prompts: [],
        resources: [],
        restartTimer: undefined,
      });
    }
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

  status(): ServerStatus[] {
    return [...this.entries.values()].map((e) => {
      const status: ServerStatus = {
        name: e.name,
        state: e.state,
        restarts: e.restarts,
        tools: e.tools.length,
      };
      if (e.error !== undefined) status.error = e.error;
      if (e.transport?.pid !== undefined && e.state === 'ready') status.pid = e.transport.pid;
      return status;
    });
  }

  /** The client of one server, for anything the aggregate view does not cover. */
  client(server: string): McpClient {
    const entry = this.entries.get(server);
    if (!entry)
      throw new RoutingError(
        `no server named "${server}"; configured: ${[...this.entries.keys()].join(', ')}`,
      );
    if (!entry.client || entry.state !== 'ready') {
      throw new RoutingError(`server "${server}" is ${entry.state}${entry.error ? `: ${entry.error}` : ''}`);
    }
    return entry.client;
  }

  tools(): QualifiedTool[] {
    return [...this.entries.values()].flatMap((e) =>
      e.state === 'ready'
        ? e.tools.map((t) => ({
            ...t,
            name: this.naming.qualify(e.name, t.name),
            server: e.name,
            originalName: t.name,
          }))
        : [],
    );
  }

  prompts(): QualifiedPrompt[] {
    return [...this.entries.values()].flatMap((e) =>
      e.state === 'ready'
        ? e.prompts.map((p) => ({
            ...p,
            name: this.naming.qualify(e.name, p.name),
            server: e.name,
            originalName: p.name,
          }))
        : [],
    );
  }

  resources(): QualifiedResource[] {
    return [...this.entries.values()].flatMap((e) =>
      e.state === 'ready' ? e.resources.map((r) => ({ ...r, server: e.name })) : [],
    );
  }

  callTool(
    qualifiedName: string,
    args: Record<string, unknown> = {},
    options?: CallOptions,
  ): Promise<CallToolResult> {
    const { server, name } = this.route(qualifiedName, 'tool');
    return this.client(server).callTool(name, args, options);
  }

  getPrompt(
    qualifiedName: string,
    args: Record<string, string> = {},
    options?: CallOptions,
  ): Promise<GetPromptResult> {
    const { server, name } = this.route(qualifiedName, 'prompt');
    return this.client(server).getPrompt(name, args, options);
  }

  /** Reads a resource from `server`, or from the server that listed the URI. */
  readResource(uri: string, server?: string, options?: CallOptions): Promise<ReadResourceResult> {
    const target =
      server ??
      [...this.entries.values()].find((e) => e.resources.some((r) => r.uri === uri))?.name ??
      (this.entries.size === 1 ? [...this.entries.keys()][0] : undefined);
    if (!target) throw new RoutingError(`no server listed ${uri}; name the server to read it from`);
    return this.client(target).readResource(uri, options);
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

  /** Shuts down on SIGINT and SIGTERM, then exits with the conventional code. */
  installSignalHandlers(): void {
    const handle = (signal: NodeJS.Signals) => {
      void this.shutdown().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGINT', handle);
    process.once('SIGTERM', handle);
  }

  private route(qualifiedName: string, kind: 'tool' | 'prompt'): { server: string; name: string } {
    const found = this.naming.split(qualifiedName, [...this.entries.keys()]);
    if (!found) {
      throw new RoutingError(
        `no ${kind} "${qualifiedName}": host names start with the server's name (${this.naming.qualify('<server>', `<${kind}>`)}); servers: ${[...this.entries.keys()].join(', ')}`,
      );
    }
    return found;
  }

  private async startServer(entry: ServerEntry): Promise<void> {
    entry.state = entry.restarts > 0 ? 'restarting' : 'starting';
    const { command, args, env, cwd } = entry.config;
    const stderrOption = this.options.stderr;
    const transport = new ChildProcessTransport({
      command,
      args,
      env,
      cwd,
      stderr: typeof stderrOption === 'function' ? (text) => stderrOption(entry.name, text) : stderrOption,
    });
    const client = new McpClient({
      name: this.options.clientInfo?.name ?? 'mcpwire-host',
      version: this.options.clientInfo?.version ?? '0.0.0',
      ...this.options.client,
      onListChanged: (list) => {
        this.options.onEvent?.({ type: 'list-changed', server: entry.name, list });
        void this.refreshLists(entry, client);
        this.options.client?.onListChanged?.(list);
      },
      onLog: (message) => {
        this.options.onEvent?.({ type: 'log', server: entry.name, level: message.level, data: message.data });
        this.options.client?.onLog?.(message);
      },
    });
    entry.client = client;
    entry.transport = transport;
    client.onClose((reason) => this.serverClosed(entry, client, reason));
    const timeout = this.options.startTimeout ?? 30_000;
    try {
      await client.connect(transport, { timeout });
      await this.refreshLists(entry, client, timeout);
      entry.state = 'ready';
      entry.error = undefined;
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
      this.options.onEvent?.({ type: 'failed', server: entry.name, error: entry.error });
      await client.close().catch(() => {});
    }
  }

  private async refreshLists(entry: ServerEntry, client: McpClient, timeout?: number): Promise<void> {
    const capabilities = client.serverCapabilities ?? {};
    const options = timeout === undefined ? undefined : { timeout };
    const [tools, prompts, resources] = await Promise.all([
      capabilities.tools ? client.listAllTools(options) : [],
      capabilities.prompts ? client.listAllPrompts(options) : [],
      capabilities.resources ? client.listAllResources(options).catch(() => []) : [],
    ]);
    if (entry.client !== client) return;
    entry.tools = tools;
    entry.prompts = prompts;
    entry.resources = resources;
  }

  private serverClosed(entry: ServerEntry, client: McpClient, reason: CloseReason): void {
    if (entry.client !== client || this.stopping || entry.state === 'failed' || entry.state === 'stopped')
      return;
    entry.state = 'failed';
    entry.error = formatCloseReason(reason);
    this.options.onEvent?.({ type: 'crashed', server: entry.name, reason: entry.error });
    this.scheduleRestart(entry);
  }

  private scheduleRestart(entry: ServerEntry): void {
    const policy = this.options.restart;
    if (policy === false || this.stopping) return;
    const maxAttempts = policy?.maxAttempts ?? 5;
    if (entry.attempt >= maxAttempts) return;
    entry.attempt++;
    const delayMs = Math.min(
      (policy?.initialDelay ?? 500) * 2 ** (entry.attempt - 1),
      policy?.maxDelay ?? 30_000,
    );
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
