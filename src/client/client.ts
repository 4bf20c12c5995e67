// The MCP client: a typed facade over the two eras (eras/handshake.ts, eras/stateless.ts). It connects
// over any transport, finds out which era the server speaks, and offers a typed method for every request
// a client sends; what a server asks of the client (sampling, elicitation, roots) is answered by one
// table of the user's callbacks (answers.ts) in either era.

import { Connection, type ConnectionProblem } from '../jsonrpc/connection.js';
import { type CloseReason, ConnectionClosedError } from '../jsonrpc/errors.js';
import { McpwireError } from '../jsonrpc/local-errors.js';
import type { Transport } from '../jsonrpc/transport.js';
import { withKeys } from '../jsonrpc/with-keys.js';
import {
  type ExtensionSettings,
  type Extensions,
  extensionsOf,
  STATELESS_ONLY_EXTENSIONS,
  withoutExtensions,
} from '../protocol/extensions.js';
import { Method, Notification } from '../protocol/methods.js';
import type { Task } from '../protocol/tasks/task.js';
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  Implementation,
  InitializeResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '../protocol/types.js';
import { LATEST_HANDSHAKE_VERSION } from '../protocol/versions.js';
import { type ClientAnswerCallbacks, ClientAnswers } from './answers.js';
import type { CallOptions, ListName } from './call-options.js';
import type { ClientEra, EraName } from './eras/era.js';
import { HandshakeEra, UnsupportedVersionError } from './eras/handshake.js';
import { rememberEra, rememberedEra } from './eras/memory.js';
import { StatelessEra } from './eras/stateless.js';
import { ListCache } from './list-cache.js';
import { collectPages } from './pagination.js';

export interface McpClientOptions extends Implementation, ClientAnswerCallbacks {
  /** The revision to ask for in the handshake era (2025-11-25). */
  protocolVersion?: string;
  /** Idle timeout of each request in ms (60 000). */
  timeout?: number;
  /** Restart a request's timeout whenever it reports progress (true): long tools that report live on. */
  resetTimeoutOnProgress?: boolean;
  /** Longest any request may take, progress or not, in ms (10 minutes). */
  maxTotalTimeout?: number;
  /** Log messages the server sends. */
  onLog?: (message: LoggingMessageNotificationParams) => void;
  /**
   * A list the server said changed: 'tools', 'resources' or 'prompts'. With `cacheLists`, it is called
   * once the list has been fetched again, with the fresh items.
   */
  onListChanged?: (list: ListName, items?: unknown[]) => void;
  /**
   * Keep what listAllTools(), listAllResources() and listAllPrompts() return, answer later calls from it,
   * and fetch a list again when the server says it changed (false).
   */
  cacheLists?: boolean;
  onResourceUpdated?: (uri: string) => void;
  /** Any other notification from the server. */
  onNotification?: (method: string, params: unknown) => void;
  onProblem?: (problem: ConnectionProblem) => void;
  /** Told about what the client chose to leave out (a tool whose x-mcp-header marks are invalid, over HTTP). */
  onWarning?: (message: string) => void;
  /**
   * 'auto' (default) probes with server/discover and falls back to initialize; 'stateless' or
   * 'handshake' skip the probe.
   */
  era?: 'auto' | EraName;
  /** How long the server/discover probe may take before falling back, in ms (5000). */
  discoverTimeout?: number;
  /** Names the server across reconnects, so that its era is remembered for the life of this process. */
  serverKey?: string;
  /**
   * Extensions this client supports (SEP-2133), with their settings ({} for none): declared at initialize
   * and on every stateless request. What the server offers is `serverExtensions`.
   */
  extensions?: Record<string, ExtensionSettings>;
  /**
   * Declare the tasks extension on every request (2026-07-28): a tools/call the server answers with a
   * task is then followed to its end, as `callTool(..., { task: true })` does for one call.
   */
  tasks?: boolean;
}

const ignoreProgress = (): void => {};
/** A call's options when it has none, and those options asking for progress: made once, not per call. */
const NO_OPTIONS: CallOptions = Object.freeze({});
const ASK_PROGRESS: CallOptions = Object.freeze({ onProgress: ignoreProgress });

export class McpClient {
  private connection: Connection | undefined;
  private eraImpl: ClientEra | undefined;
  private initializeResult: InitializeResult | undefined;
  private readonly closeListeners: Array<(reason: CloseReason) => void> = [];
  private readonly answers: ClientAnswers;
  private readonly lists: ListCache;

  constructor(private readonly options: McpClientOptions) {
    this.answers = new ClientAnswers(options, options.extensions);
    this.lists = new ListCache(options.cacheLists === true, options.onListChanged);
  }

  /** Which era the server speaks: 'stateless' (2026-07-28) or 'handshake' (initialize). */
  get era(): EraName | undefined {
    return this.eraImpl?.name;
  }

  /**
   * Starts the transport and finds out how to talk to the server: server/discover for the stateless
   * revision, else the initialize handshake. Returns what the server said about itself, in the shape of an
   * initialize result either way.
   */
  async connect(transport: Transport, options: { timeout?: number } = {}): Promise<InitializeResult> {
    if (this.connection) {
      throw new McpwireError(
        'ALREADY_CONNECTED',
        'this client is already connected; create one client per server',
      );
    }
    const connection = new Connection(transport, {
      timeout: this.options.timeout ?? 60_000,
      resetTimeoutOnProgress: this.options.resetTimeoutOnProgress ?? true,
      maxTotalTimeout: this.options.maxTotalTimeout ?? 600_000,
      onProblem: this.options.onProblem,
    });
    this.connection = connection;
    this.registerHandlers(connection);
    connection.onClose((reason) => {
      for (const listener of this.closeListeners.splice(0)) listener(reason);
    });
    connection.start();
    const preferred = this.options.era ?? 'auto';
    const known = rememberedEra(this.options.serverKey);
    if (preferred === 'stateless' || (preferred === 'auto' && known !== 'handshake')) {
      const stateless = new StatelessEra(connection, transport, this.answers, {
        clientInfo: this.clientInfo(),
        wantsListChanges: this.wantsListChanges,
        onWarning: this.options.onWarning,
        tasks: this.options.tasks,
      });
      const discovered = await stateless.discover(
        Math.min(options.timeout ?? 5000, this.options.discoverTimeout ?? 5000),
      );
      if (discovered) {
        rememberEra(this.options.serverKey, 'stateless');
        this.eraImpl = stateless;
        this.initializeResult = discovered;
        return discovered;
      }
      // A transport that gave up during the probe (authorization refused, nobody there) has said why;
      // an initialize on the closed connection would only report it under the wrong request's name.
      if (connection.closed) throw new ConnectionClosedError(Method.ServerDiscover, connection.closed);
      if (preferred === 'stateless') {
        await connection.close().catch(() => {});
        throw new UnsupportedVersionError('(no answer to server/discover)');
      }
    }
    rememberEra(this.options.serverKey, 'handshake');
    const handshake = await HandshakeEra.open(
      connection,
      transport,
      {
        protocolVersion: this.options.protocolVersion ?? LATEST_HANDSHAKE_VERSION,
        // Extensions the handshake revisions do not define (tasks) are not declared there.
        capabilities: withoutExtensions(this.answers.capabilities(), STATELESS_ONLY_EXTENSIONS),
        clientInfo: this.clientInfo(),
      },
      options.timeout,
    );
    this.eraImpl = handshake;
    this.initializeResult = handshake.result;
    return handshake.result;
  }

  get protocolVersion(): string | undefined {
    return this.initializeResult?.protocolVersion;
  }

  get serverInfo(): Implementation | undefined {
    return this.initializeResult?.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.initializeResult?.capabilities;
  }

  /** The extensions the server offers (SEP-2133), with its settings for each. */
  get serverExtensions(): Extensions {
    return extensionsOf(this.initializeResult?.capabilities);
  }

  get instructions(): string | undefined {
    return this.initializeResult?.instructions;
  }

  /** Why the connection closed, once it has. */
  get closed(): CloseReason | undefined {
    return this.connection?.closed;
  }

  onClose(listener: (reason: CloseReason) => void): void {
    const reason = this.connection?.closed;
    if (reason) listener(reason);
    else this.closeListeners.push(listener);
  }

  /** Cancels every request in flight (see Connection.cancelAll); the connection stays open. */
  cancelAll(reason: string): void {
    this.connection?.cancelAll(reason);
  }

  async close(): Promise<void> {
    this.eraImpl?.close();
    await this.connection?.close();
  }

  /**
   * Sends any request; the typed methods below are this with the right names and shapes. In the stateless
   * era it carries the envelope, and input_required results are answered through the same callbacks as
   * the handshake era's server requests, then the request is sent again with the answers.
   */
  request<T>(
    method: string,
    params?: Record<string, unknown>,
    options: CallOptions = NO_OPTIONS,
  ): Promise<T> {
    const era = this.eraImpl;
    if (!era) return Promise.reject(notConnected(method));
    return era.send<T>(method, params, options);
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.connection?.notify(method, params);
  }

  ping(options?: CallOptions): Promise<Record<string, never>> {
    return this.eraImpl ? this.eraImpl.ping(options) : Promise.reject(notConnected(Method.Ping));
  }

  listTools(cursor?: string, options?: CallOptions): Promise<{ tools: Tool[]; nextCursor?: string }> {
    return this.request(Method.ToolsList, cursor === undefined ? {} : { cursor }, options);
  }

  /** Every tool, following nextCursor to the end. */
  listAllTools(options?: CallOptions): Promise<Tool[]> {
    return this.lists.get('tools', () => collectPages((cursor) => this.listTools(cursor, options), 'tools'));
  }

  callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = NO_OPTIONS,
  ): Promise<CallToolResult> {
    // A server can only report progress for a request that carries a progress token. Ask for it even
    // without a callback, so that a long tool that reports progress keeps its call alive (reset on progress).
    const reset = options.resetTimeoutOnProgress ?? this.options.resetTimeoutOnProgress ?? true;
    const withProgress =
      reset && !options.onProgress
        ? options === NO_OPTIONS
          ? ASK_PROGRESS
          : withKeys(options, { onProgress: ignoreProgress })
        : options;
    return this.request(Method.ToolsCall, { name, arguments: args }, withProgress);
  }

  /**
   * Calls a tool with the tasks extension declared and does not wait: resolves with the task the server
   * made of the call (`resultType: 'task'`, keep its taskId to follow it with waitForTask), or with the
   * call's result when the server answered at once. Needs protocol 2026-07-28.
   */
  startToolTask(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = NO_OPTIONS,
  ): Promise<(Task & { resultType: 'task' }) | (CallToolResult & { resultType?: string })> {
    const era = this.eraImpl;
    if (!(era instanceof StatelessEra)) return Promise.reject(this.noTasks(Method.ToolsCall));
    return era.startTask({ name, arguments: args }, options) as Promise<never>;
  }

  /** tasks/get: a task's state now (the tasks extension, 2026-07-28). */
  getTask(taskId: string, options?: CallOptions): Promise<Task> {
    return this.taskRequest(Method.TasksGet, { taskId }, options);
  }

  /** tasks/update: answers to a task's input requests, keyed as it asked. */
  updateTask(
    taskId: string,
    inputResponses: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, never>> {
    return this.taskRequest(Method.TasksUpdate, { taskId, inputResponses }, options);
  }

  /** tasks/cancel: asks the server to cancel a task (it acknowledges; tasks/get shows the outcome). */
  cancelTask(taskId: string, options?: CallOptions): Promise<Record<string, never>> {
    return this.taskRequest(Method.TasksCancel, { taskId }, options);
  }

  /** Follows a task to its end, answering its input requests; resolves with its result. */
  waitForTask(taskId: string, options: CallOptions = NO_OPTIONS): Promise<CallToolResult> {
    const era = this.eraImpl;
    if (!(era instanceof StatelessEra)) return Promise.reject(this.noTasks(Method.TasksGet));
    return era.waitForTask(taskId, options) as Promise<unknown> as Promise<CallToolResult>;
  }

  private taskRequest<T>(method: string, params: Record<string, unknown>, options?: CallOptions): Promise<T> {
    if (this.eraImpl && !(this.eraImpl instanceof StatelessEra)) return Promise.reject(this.noTasks(method));
    return this.request<T>(method, params, options);
  }

  private noTasks(method: string): McpwireError {
    return new McpwireError(
      'TASKS_UNAVAILABLE',
      `"${method}" needs the tasks extension of protocol 2026-07-28; this server speaks ${this.protocolVersion ?? 'an older revision'} through initialize`,
    );
  }

  listResources(
    cursor?: string,
    options?: CallOptions,
  ): Promise<{ resources: Resource[]; nextCursor?: string }> {
    return this.request(Method.ResourcesList, cursor === undefined ? {} : { cursor }, options);
  }

  listAllResources(options?: CallOptions): Promise<Resource[]> {
    return this.lists.get('resources', () =>
      collectPages((cursor) => this.listResources(cursor, options), 'resources'),
    );
  }

  listResourceTemplates(
    cursor?: string,
    options?: CallOptions,
  ): Promise<{ resourceTemplates: ResourceTemplate[]; nextCursor?: string }> {
    return this.request(Method.ResourcesTemplatesList, cursor === undefined ? {} : { cursor }, options);
  }

  listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return collectPages((cursor) => this.listResourceTemplates(cursor, options), 'resourceTemplates');
  }

  async readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    const result = await this.request<ReadResourceResult & { content?: unknown }>(
      Method.ResourcesRead,
      { uri },
      options,
    );
    // Servers written from early drafts (the seed among them) answer with `content`; the specification
    // says `contents`. Accept both, and hand out the specification's shape.
    if (result && !Array.isArray(result.contents) && Array.isArray(result.content)) {
      const { content, ...rest } = result;
      return { ...rest, contents: content as ReadResourceResult['contents'] };
    }
    return result;
  }

  subscribeResource(uri: string, options?: CallOptions): Promise<Record<string, never>> {
    if (!this.eraImpl) return Promise.reject(notConnected(Method.ResourcesSubscribe));
    return this.eraImpl.subscribe(uri, options);
  }

  unsubscribeResource(uri: string, options?: CallOptions): Promise<Record<string, never>> {
    if (!this.eraImpl) return Promise.reject(notConnected(Method.ResourcesUnsubscribe));
    return this.eraImpl.unsubscribe(uri, options);
  }

  listPrompts(cursor?: string, options?: CallOptions): Promise<{ prompts: Prompt[]; nextCursor?: string }> {
    return this.request(Method.PromptsList, cursor === undefined ? {} : { cursor }, options);
  }

  listAllPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.lists.get('prompts', () =>
      collectPages((cursor) => this.listPrompts(cursor, options), 'prompts'),
    );
  }

  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options?: CallOptions,
  ): Promise<GetPromptResult> {
    return this.request(Method.PromptsGet, { name, arguments: args }, options);
  }

  complete(params: CompleteRequestParams, options?: CallOptions): Promise<CompleteResult> {
    return this.request(Method.CompletionComplete, params as unknown as Record<string, unknown>, options);
  }

  setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<Record<string, never>> {
    if (!this.eraImpl) return Promise.reject(notConnected(Method.LoggingSetLevel));
    return this.eraImpl.setLoggingLevel(level, options);
  }

  /** Tells the server the roots changed; it will ask for them again. */
  notifyRootsChanged(): void {
    // 2026-07-28 has no such notification: a server asks for roots within the request that needs them
    // (input_required), so it always gets the current ones. Sent over HTTP, it was a 400 that ended the client.
    if (this.era === 'stateless') return;
    this.notify(Notification.RootsListChanged);
  }

  private get wantsListChanges(): boolean {
    return this.options.onListChanged !== undefined || this.options.cacheLists === true;
  }

  private listChanged(name: ListName): void {
    this.lists.changed(name, () =>
      name === 'tools'
        ? this.listAllTools()
        : name === 'resources'
          ? this.listAllResources()
          : this.listAllPrompts(),
    );
  }

  private clientInfo(): Implementation {
    const { name, version, title, description, websiteUrl, icons } = this.options;
    const info: Implementation = { name, version };
    if (title !== undefined) info.title = title;
    if (description !== undefined) info.description = description;
    if (websiteUrl !== undefined) info.websiteUrl = websiteUrl;
    if (icons !== undefined) info.icons = icons;
    return info;
  }

  private registerHandlers(connection: Connection): void {
    // The server's requests of the handshake era, answered from the same table as input_required rounds.
    for (const [method, answer] of this.answers.methods()) {
      connection.onRequest(method, (params, ctx) =>
        answer((params ?? {}) as Record<string, unknown>, { signal: ctx.signal, tag: ctx.relatedTag }),
      );
    }
    connection.onRequest(Method.Ping, () => ({}));
    connection.onNotification(Notification.Message, (params) =>
      this.options.onLog?.(params as LoggingMessageNotificationParams),
    );
    connection.onNotification(Notification.ToolsListChanged, () => this.listChanged('tools'));
    connection.onNotification(Notification.ResourcesListChanged, () => this.listChanged('resources'));
    connection.onNotification(Notification.PromptsListChanged, () => this.listChanged('prompts'));
    connection.onNotification(Notification.ResourcesUpdated, (params) => {
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri === 'string') this.options.onResourceUpdated?.(uri);
    });
    connection.onOtherNotification((method, params) => this.options.onNotification?.(method, params));
  }
}

function notConnected(method: string): McpwireError {
  return new McpwireError('NOT_CONNECTED', `not connected: call connect() before "${method}"`);
}

export type { ClientHandlerContext } from './answers.js';
export type { CallOptions, ListName } from './call-options.js';
export { UnsupportedVersionError } from './eras/handshake.js';
