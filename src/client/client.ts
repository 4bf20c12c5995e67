// The MCP client: connects over any transport, negotiates the protocol version, offers typed methods for
// every request a client sends, follows pagination, and answers what servers ask of clients (sampling,
// elicitation, roots) through callbacks the user supplies. A capability is declared only when its
// callback is there.

import {
  Connection,
  type ConnectionProblem,
  type Progress,
  type RequestOptions,
} from '../jsonrpc/connection.js';
import { type CloseReason, ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import { Method, Notification } from '../protocol/methods.js';
import { LATEST_MODERN_VERSION, MetaKey } from '../protocol/modern.js';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  GetPromptResult,
  Implementation,
  InitializeResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  Tool,
} from '../protocol/types.js';
import { HANDSHAKE_VERSIONS, isHandshakeVersion, LATEST_HANDSHAKE_VERSION } from '../protocol/versions.js';
import type { Transport } from '../transport/transport.js';
import { applySchemaDefaults } from './elicitation-defaults.js';
import { type Era, envelope, probe, rememberEra, rememberedEra, withEnvelope } from './eras.js';

export interface ClientHandlerContext {
  signal: AbortSignal;
}

export interface McpClientOptions extends Implementation {
  /** The revision to ask for (2025-11-25). */
  protocolVersion?: string;
  /** Idle timeout of each request in ms (60 000). */
  timeout?: number;
  /** Restart a request's timeout whenever it reports progress (true): long tools that report live on. */
  resetTimeoutOnProgress?: boolean;
  /** Longest any request may take, progress or not, in ms (10 minutes). */
  maxTotalTimeout?: number;
  /** Answers sampling/createMessage; declares the `sampling` capability. */
  onSampling?: (
    params: CreateMessageRequestParams,
    context: ClientHandlerContext,
  ) => Promise<CreateMessageResult>;
  /** Answers elicitation/create; declares the `elicitation` capability (form mode, and url with `elicitationUrl`). */
  onElicitation?: (params: ElicitRequestParams, context: ClientHandlerContext) => Promise<ElicitResult>;
  /** Whether `onElicitation` handles URL-mode elicitations too. */
  elicitationUrl?: boolean;
  /** Answers roots/list; declares the `roots` capability (with listChanged). */
  roots?: () => Root[] | Promise<Root[]>;
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
  /**
   * 'auto' (default) probes with server/discover and falls back to initialize; 'modern' or 'handshake'
   * skip the probe.
   */
  era?: 'auto' | Era;
  /** How long the server/discover probe may take before falling back, in ms (5000). */
  discoverTimeout?: number;
  /** Names the server across reconnects, so that its era is remembered for the life of this process. */
  serverKey?: string;
}

const MAX_INPUT_ROUNDS = 16;

export type ListName = 'tools' | 'resources' | 'prompts';

const ignoreProgress = (): void => {};
/** A call's options when it has none, and those options asking for progress: made once, not per call. */
const NO_OPTIONS: CallOptions = Object.freeze({});
const ASK_PROGRESS: CallOptions = Object.freeze({ onProgress: ignoreProgress });

export interface CallOptions extends Omit<RequestOptions, 'onProgress'> {
  onProgress?: (progress: Progress) => void;
}

/** The server's answer to initialize named a revision this client cannot speak. */
export class UnsupportedVersionError extends Error {
  override readonly name = 'UnsupportedVersionError';
  constructor(readonly serverVersion: unknown) {
    super(
      `the server answered with protocol version ${JSON.stringify(serverVersion)}, which mcpwire does not speak (it speaks ${HANDSHAKE_VERSIONS.join(', ')})`,
    );
  }
}

export class McpClient {
  private connection: Connection | undefined;
  private initializeResult: InitializeResult | undefined;
  private readonly closeListeners: Array<(reason: CloseReason) => void> = [];
  private eraValue: Era | undefined;
  /** The level asked for with setLoggingLevel; in the stateless era it travels on every request. */
  private logLevel: LoggingLevel | undefined;
  private listen: { controller: AbortController; done: Promise<unknown> } | undefined;
  private readonly resourceSubscriptions = new Set<string>();
  /** With cacheLists: each list as fetched, shared by every caller until the server says it changed. */
  private readonly listCache = new Map<ListName, Promise<unknown[]>>();

  constructor(private readonly options: McpClientOptions) {}

  /** Which era the server speaks: 'modern' (2026-07-28, stateless) or 'handshake' (initialize). */
  get era(): Era | undefined {
    return this.eraValue;
  }

  /**
   * Starts the transport and finds out how to talk to the server: server/discover for the stateless
   * revision, else the initialize handshake. Returns what the server said about itself, in the shape of an
   * initialize result either way.
   */
  async connect(transport: Transport, options: { timeout?: number } = {}): Promise<InitializeResult> {
    if (this.connection) throw new Error('this client is already connected; create one client per server');
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
    if (preferred === 'modern' || (preferred === 'auto' && known !== 'handshake')) {
      const probeTimeout = Math.min(options.timeout ?? 5000, this.options.discoverTimeout ?? 5000);
      const discovered = await probe(connection, this.envelope(), probeTimeout);
      if (discovered) {
        this.eraValue = 'modern';
        rememberEra(this.options.serverKey, 'modern');
        const serverInfo = (discovered._meta?.[MetaKey.ServerInfo] as Implementation | undefined) ?? {
          name: 'unknown',
          version: 'unknown',
        };
        this.initializeResult = {
          protocolVersion: LATEST_MODERN_VERSION,
          capabilities: discovered.capabilities ?? {},
          serverInfo,
        };
        if (discovered.instructions !== undefined)
          this.initializeResult.instructions = discovered.instructions;
        if (this.wantsListChanges) this.openListen();
        return this.initializeResult;
      }
      if (preferred === 'modern') {
        await connection.close().catch(() => {});
        throw new UnsupportedVersionError('(no answer to server/discover)');
      }
    }
    this.eraValue = 'handshake';
    rememberEra(this.options.serverKey, 'handshake');
    let result: InitializeResult;
    try {
      result = await connection.request<InitializeResult>(
        Method.Initialize,
        {
          protocolVersion: this.options.protocolVersion ?? LATEST_HANDSHAKE_VERSION,
          capabilities: this.capabilities(),
          clientInfo: this.clientInfo(),
        },
        { timeout: options.timeout },
      );
    } catch (error) {
      // A failed handshake (an error answer, a timeout) used to leave the transport open: a spawned server
      // kept running although this client can never be connected again. End it, as for an unusable
      // version; not awaited, so that the caller gets the handshake's error at once.
      void connection.close().catch(() => {});
      throw error;
    }
    if (!isHandshakeVersion(result?.protocolVersion)) {
      await connection.close().catch(() => {});
      throw new UnsupportedVersionError(result?.protocolVersion);
    }
    this.initializeResult = result;
    connection.notify(Notification.Initialized);
    return result;
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

  async close(): Promise<void> {
    this.listen?.controller.abort();
    await this.connection?.close();
  }

  /**
   * Sends any request; the typed methods below are this with the right names and shapes. In the stateless
   * era it carries the envelope, and input_required results are answered through the same callbacks as
   * the handshake era's server requests, then the request is sent again with the answers.
   */
  request<T>(method: string, params?: Record<string, unknown>, options: CallOptions = {}): Promise<T> {
    const connection = this.connection;
    if (!connection) return Promise.reject(new Error('not connected: call connect() first'));
    // Not an async function: in the handshake era the connection's own promise is handed out as it is,
    // without a second promise and a turn around it on every call.
    if (this.eraValue !== 'modern') return connection.request<T>(method, params, options);
    return this.requestModern<T>(connection, method, params, options);
  }

  /** A stateless request, answered again with the client's input for as long as the server asks for it. */
  private async requestModern<T>(
    connection: Connection,
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<T> {
    let current = params ?? {};
    for (let round = 0; ; round++) {
      const result = await connection.request<Record<string, unknown>>(
        method,
        withEnvelope(current, this.envelope()),
        options,
      );
      // A result without resultType is complete: servers of earlier drafts leave it out.
      if (result?.resultType !== 'input_required') return result as T;
      if (round >= MAX_INPUT_ROUNDS) {
        throw new Error(`"${method}" still asked for input after ${MAX_INPUT_ROUNDS} rounds; giving up`);
      }
      const inputResponses = await this.answerInputRequests(
        (result.inputRequests ?? {}) as Record<string, { method: string; params?: unknown }>,
        options.signal,
      );
      current = { ...params, inputResponses };
      if (result.requestState !== undefined) current.requestState = result.requestState;
    }
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.connection?.notify(method, params);
  }

  ping(options?: CallOptions): Promise<Record<string, never>> {
    // The stateless revision has no ping; discover is its cheapest request.
    if (this.eraValue === 'modern') return this.request('server/discover', {}, options);
    return this.request(Method.Ping, undefined, options);
  }

  listTools(cursor?: string, options?: CallOptions): Promise<{ tools: Tool[]; nextCursor?: string }> {
    return this.request(Method.ToolsList, cursor === undefined ? {} : { cursor }, options);
  }

  /** Every tool, following nextCursor to the end. */
  listAllTools(options?: CallOptions): Promise<Tool[]> {
    return this.cachedList('tools', () => this.collect((cursor) => this.listTools(cursor, options), 'tools'));
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
          : { ...options, onProgress: ignoreProgress }
        : options;
    return this.request(Method.ToolsCall, { name, arguments: args }, withProgress);
  }

  listResources(
    cursor?: string,
    options?: CallOptions,
  ): Promise<{ resources: Resource[]; nextCursor?: string }> {
    return this.request(Method.ResourcesList, cursor === undefined ? {} : { cursor }, options);
  }

  listAllResources(options?: CallOptions): Promise<Resource[]> {
    return this.cachedList('resources', () =>
      this.collect((cursor) => this.listResources(cursor, options), 'resources'),
    );
  }

  listResourceTemplates(
    cursor?: string,
    options?: CallOptions,
  ): Promise<{ resourceTemplates: ResourceTemplate[]; nextCursor?: string }> {
    return this.request(Method.ResourcesTemplatesList, cursor === undefined ? {} : { cursor }, options);
  }

  listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return this.collect((cursor) => this.listResourceTemplates(cursor, options), 'resourceTemplates');
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

  async subscribeResource(uri: string, options?: CallOptions): Promise<Record<string, never>> {
    if (this.eraValue !== 'modern') return this.request(Method.ResourcesSubscribe, { uri }, options);
    this.resourceSubscriptions.add(uri);
    this.openListen();
    return {};
  }

  async unsubscribeResource(uri: string, options?: CallOptions): Promise<Record<string, never>> {
    if (this.eraValue !== 'modern') return this.request(Method.ResourcesUnsubscribe, { uri }, options);
    this.resourceSubscriptions.delete(uri);
    this.openListen();
    return {};
  }

  listPrompts(cursor?: string, options?: CallOptions): Promise<{ prompts: Prompt[]; nextCursor?: string }> {
    return this.request(Method.PromptsList, cursor === undefined ? {} : { cursor }, options);
  }

  listAllPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.cachedList('prompts', () =>
      this.collect((cursor) => this.listPrompts(cursor, options), 'prompts'),
    );
  }

  private get wantsListChanges(): boolean {
    return this.options.onListChanged !== undefined || this.options.cacheLists === true;
  }

  /** With cacheLists, the one fetch of a list that every caller shares until the server says it changed. */
  private cachedList<T>(name: ListName, fetch: () => Promise<T[]>): Promise<T[]> {
    if (!this.options.cacheLists) return fetch();
    let cached = this.listCache.get(name) as Promise<T[]> | undefined;
    if (!cached) {
      const fetching = fetch();
      cached = fetching;
      this.listCache.set(name, fetching);
      // A failed fetch is not kept: the next call tries again.
      fetching.catch(() => {
        if (this.listCache.get(name) === fetching) this.listCache.delete(name);
      });
    }
    return cached;
  }

  /** notifications/.../list_changed: drop the cached list, fetch it again if it was cached, tell the user. */
  private listChanged(name: ListName): void {
    const wasCached = this.listCache.delete(name);
    if (!wasCached) {
      this.options.onListChanged?.(name);
      return;
    }
    const fresh =
      name === 'tools'
        ? this.listAllTools()
        : name === 'resources'
          ? this.listAllResources()
          : this.listAllPrompts();
    fresh.then(
      (items) => this.options.onListChanged?.(name, items),
      () => this.options.onListChanged?.(name),
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

  async setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<Record<string, never>> {
    this.logLevel = level;
    // Stateless servers take the level with each request instead.
    if (this.eraValue === 'modern') return {};
    return this.request(Method.LoggingSetLevel, { level }, options);
  }

  /** Tells the server the roots changed; it will ask for them again. */
  notifyRootsChanged(): void {
    this.notify(Notification.RootsListChanged);
  }

  private async collect<K extends string, T>(
    page: (cursor: string | undefined) => Promise<{ [key in K]: T[] } & { nextCursor?: string }>,
    key: K,
  ): Promise<T[]> {
    const all: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const result = await page(cursor);
      all.push(...(result[key] ?? []));
      cursor = result.nextCursor;
      // A server that hands out the same cursor twice would keep us here forever.
      if (cursor !== undefined) {
        if (seen.has(cursor))
          throw new Error(`the server repeated a ${key} cursor; stopping to avoid a loop`);
        seen.add(cursor);
      }
    } while (cursor !== undefined);
    return all;
  }

  private envelope(): Record<string, unknown> {
    return envelope(this.capabilities(), this.clientInfo(), this.logLevel);
  }

  /**
   * (Re)opens the one subscriptions/listen stream of the stateless era with the current filter: list
   * changes when there is a callback for them, and every subscribed resource.
   */
  private openListen(): void {
    const connection = this.connection;
    if (!connection) return;
    this.listen?.controller.abort();
    const notifications: Record<string, unknown> = {};
    if (this.wantsListChanges) {
      notifications.toolsListChanged = true;
      notifications.resourcesListChanged = true;
      notifications.promptsListChanged = true;
    }
    if (this.resourceSubscriptions.size > 0)
      notifications.resourceSubscriptions = [...this.resourceSubscriptions];
    if (Object.keys(notifications).length === 0) {
      this.listen = undefined;
      return;
    }
    const controller = new AbortController();
    const done = connection
      .request(
        'subscriptions/listen',
        { notifications, _meta: this.envelope() },
        { signal: controller.signal, timeout: 0 },
      )
      .catch(() => undefined);
    this.listen = { controller, done };
  }

  /** Answers a server's input requests with the user's callbacks, keyed as the server keyed them. */
  private async answerInputRequests(
    requests: Record<string, { method: string; params?: unknown }>,
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>> {
    const context = { signal: signal ?? new AbortController().signal };
    const responses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests)) {
      const params = (request.params ?? {}) as Record<string, unknown>;
      switch (request.method) {
        case Method.SamplingCreateMessage:
          if (!this.options.onSampling)
            throw new Error('the server asked for sampling, but this client has no onSampling callback');
          responses[key] = await this.options.onSampling(
            params as unknown as CreateMessageRequestParams,
            context,
          );
          break;
        case Method.ElicitationCreate: {
          if (!this.options.onElicitation) {
            throw new Error(
              'the server asked for user input (elicitation), but this client has no onElicitation callback',
            );
          }
          const elicit = params as unknown as ElicitRequestParams;
          this.checkElicitationMode(elicit);
          const answer = await this.options.onElicitation(elicit, context);
          responses[key] =
            elicit.mode === 'url' ? answer : applySchemaDefaults(elicit.requestedSchema, answer);
          break;
        }
        case Method.RootsList:
          if (!this.options.roots)
            throw new Error('the server asked for roots, but this client has no roots callback');
          responses[key] = { roots: await this.options.roots() };
          break;
        default:
          throw new Error(`the server asked for "${request.method}", which a client cannot answer`);
      }
    }
    return responses;
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

  /**
   * A URL-mode elicitation reaches the callback only when the client declared URL mode (`elicitationUrl`):
   * otherwise a form-only callback would be handed a request without a schema (and could "accept" a
   * sign-in it never showed). Refused with -32602, as the official SDK does.
   */
  private checkElicitationMode(request: ElicitRequestParams): void {
    if (request.mode === 'url' && !this.options.elicitationUrl) {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        'this client does not support URL mode elicitation (it declared form mode only; set elicitationUrl to handle URL mode)',
      );
    }
  }

  private capabilities(): ClientCapabilities {
    const capabilities: ClientCapabilities = {};
    if (this.options.onSampling) capabilities.sampling = {};
    if (this.options.onElicitation) {
      capabilities.elicitation = this.options.elicitationUrl ? { form: {}, url: {} } : { form: {} };
    }
    if (this.options.roots) capabilities.roots = { listChanged: true };
    return capabilities;
  }

  private registerHandlers(connection: Connection): void {
    const { onSampling, onElicitation, roots } = this.options;
    if (onSampling) {
      connection.onRequest(Method.SamplingCreateMessage, (params, ctx) =>
        onSampling(params as CreateMessageRequestParams, { signal: ctx.signal }),
      );
    }
    if (onElicitation) {
      connection.onRequest(Method.ElicitationCreate, async (params, ctx) => {
        const request = params as ElicitRequestParams;
        this.checkElicitationMode(request);
        const result = await onElicitation(request, { signal: ctx.signal });
        return request.mode === 'url' ? result : applySchemaDefaults(request.requestedSchema, result);
      });
    }
    if (roots) connection.onRequest(Method.RootsList, async () => ({ roots: await roots() }));
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
