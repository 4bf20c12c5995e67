// The multi-server host: many servers as one. Its supervisor (supervisor.ts) runs them; the host lists
// their tools, prompts and resources as one set with collision-free names and routes each call to its
// server.

import type { CallOptions, McpClient } from '../client/client.js';
import { McpwireError } from '../jsonrpc/local-errors.js';
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  Tool,
} from '../protocol/types.js';
import type { HostConfig, ServerConfig } from './config.js';
import { type Naming, separatorNaming } from './naming.js';
import { type HostOptions, type ServerEntry, type ServerStatus, Supervisor } from './supervisor.js';

export type { HostEvent, HostOptions, RestartPolicy, ServerState, ServerStatus } from './supervisor.js';

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

/** A call named a server or tool that the host does not have. */
export class RoutingError extends McpwireError {
  override readonly name = 'RoutingError';
  constructor(message: string) {
    super('ROUTING', message);
  }
}

export class McpHost {
  private readonly supervisor: Supervisor;
  private readonly entries: ReadonlyMap<string, ServerEntry>;
  private readonly naming: Naming;

  constructor(config: HostConfig, options: HostOptions = {}) {
    this.naming = options.naming ?? separatorNaming();
    this.supervisor = new Supervisor(config, options);
    this.entries = this.supervisor.entries;
  }

  /**
   * Starts every server in parallel. A server that fails is reported by name (a 'failed' event, and its
   * status with the error); the others go on. With `requireAll`, start rejects once every server was
   * tried if any failed (an McpwireError, SERVER_UNAVAILABLE, naming each one and why): the servers that
   * did start keep running until shutdown().
   */
  async start(options: { requireAll?: boolean } = {}): Promise<ServerStatus[]> {
    const statuses = await this.supervisor.start();
    const failed = statuses.filter((s) => s.state === 'failed');
    if (options.requireAll && failed.length > 0) {
      const lines = failed.map((s) => `server "${s.name}" could not start: ${s.error ?? 'unknown reason'}`);
      throw new McpwireError('SERVER_UNAVAILABLE', lines.join('\n'));
    }
    return statuses;
  }

  status(): ServerStatus[] {
    return this.supervisor.status();
  }

  /** Starts one server again now (its old process or session ended first), and gives its new status. */
  restart(server: string): Promise<ServerStatus> {
    if (!this.entries.has(server)) throw new RoutingError(`no server named "${server}"`);
    return this.supervisor.restart(server);
  }

  /**
   * Adds a server to a running host and starts it; its status says whether it started (as start() does).
   * A name that is taken is a RoutingError, and nothing starts; a server that failed to start is replaced.
   */
  async add(server: string, config: ServerConfig): Promise<ServerStatus> {
    const taken = this.entries.get(server);
    if (taken && taken.state !== 'failed')
      throw new RoutingError(`there is a server named "${server}" already`);
    if (server === '') throw new RoutingError("a server's name cannot be empty");
    return this.supervisor.add(server, config);
  }

  /** How a server is configured (to start a fresh process of it, as doctor does). */
  config(server: string): ServerConfig {
    const entry = this.entries.get(server);
    if (!entry) throw new RoutingError(`no server named "${server}"`);
    return entry.config;
  }

  /** Stops health checks and restarts, and ends every server. No process outlives this. */
  shutdown(): Promise<void> {
    return this.supervisor.shutdown();
  }

  /** Cancels what is in flight on every server (a signal to the command line), before a shutdown. */
  cancelAll(reason: string): void {
    for (const entry of this.entries.values()) entry.client?.cancelAll(reason);
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
}
