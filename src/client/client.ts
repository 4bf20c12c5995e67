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
import type { CloseReason } from '../jsonrpc/errors.js';
import { Method, Notification } from '../protocol/methods.js';
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
  /** A list the server said changed: 'tools', 'resources' or 'prompts'. */
  onListChanged?: (list: 'tools' | 'resources' | 'prompts') => void;
  onResourceUpdated?: (uri: string) => void;
  /** Any other notification from the server. */
  onNotification?: (method: string, params: unknown) => void;
  onProblem?: (problem: ConnectionProblem) => void;
}

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

  constructor(private readonly options: McpClientOptions) {}

  /** Starts the transport, performs the handshake and returns the server's initialize result. */
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
    const result = await connection.request<InitializeResult>(
      Method.Initialize,
      {
        protocolVersion: this.options.protocolVersion ?? LATEST_HANDSHAKE_VERSION,
        capabilities: this.capabilities(),
        clientInfo: this.clientInfo(),
      },
      { timeout: options.timeout },
    );
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
    await this.connection?.close();
  }

  /** Sends any request; the typed methods below are this with the right names and shapes. */
  request<T>(method: string, params?: Record<string, unknown>, options: CallOptions = {}): Promise<T> {
    if (!this.connection) return Promise.reject(new Error('not connected: call connect() first'));
    return this.connection.request<T>(method, params, options);
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.connection?.notify(method, params);
  }

  ping(options?: CallOptions): Promise<Record<string, never>> {
    return this.request(Method.Ping, undefined, options);
  }

  listTools(cursor?: string, options?: CallOptions): Promise<{ tools: Tool[]; nextCursor?: string }> {
    return this.request(Method.ToolsList, cursor === undefined ? {} : { cursor }, options);
  }

  /** Every tool, following nextCursor to the end. */
  listAllTools(options?: CallOptions): Promise<Tool[]> {
    return this.collect((cursor) => this.listTools(cursor, options), 'tools');
  }

  callTool(name: string, args: Record<string, unknown> = {}, options?: CallOptions): Promise<CallToolResult> {
    return this.request(Method.ToolsCall, { name, arguments: args }, options);
  }

  listResources(
    cursor?: string,
    options?: CallOptions,
  ): Promise<{ resources: Resource[]; nextCursor?: string }> {
    return this.request(Method.ResourcesList, cursor === undefined ? {} : { cursor }, options);
  }

  listAllResources(options?: CallOptions): Promise<Resource[]> {
    return this.collect((cursor) => this.listResources(cursor, options), 'resources');
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

  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.request(Method.ResourcesRead, { uri }, options);
  }

  subscribeResource(uri: string, options?: CallOptions): Promise<Record<string, never>> {
    return this.request(Method.ResourcesSubscribe, { uri }, options);
  }

  unsubscribeResource(uri: string, options?: CallOptions): Promise<Record<string, never>> {
    return this.request(Method.ResourcesUnsubscribe, { uri }, options);
  }

  listPrompts(cursor?: string, options?: CallOptions): Promise<{ prompts: Prompt[]; nextCursor?: string }> {
    return this.request(Method.PromptsList, cursor === undefined ? {} : { cursor }, options);
  }

  listAllPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.collect((cursor) => this.listPrompts(cursor, options), 'prompts');
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

  private clientInfo(): Implementation {
    const { name, version, title, description, websiteUrl, icons } = this.options;
    const info: Implementation = { name, version };
    if (title !== undefined) info.title = title;
    if (description !== undefined) info.description = description;
    if (websiteUrl !== undefined) info.websiteUrl = websiteUrl;
    if (icons !== undefined) info.icons = icons;
    return info;
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
        const result = await onElicitation(request, { signal: ctx.signal });
        return request.mode === 'url' ? result : applySchemaDefaults(request.requestedSchema, result);
      });
    }
    if (roots) connection.onRequest(Method.RootsList, async () => ({ roots: await roots() }));
    connection.onRequest(Method.Ping, () => ({}));
    connection.onNotification(Notification.Message, (params) =>
      this.options.onLog?.(params as LoggingMessageNotificationParams),
    );
    connection.onNotification(Notification.ToolsListChanged, () => this.options.onListChanged?.('tools'));
    connection.onNotification(Notification.ResourcesListChanged, () =>
      this.options.onListChanged?.('resources'),
    );
    connection.onNotification(Notification.PromptsListChanged, () => this.options.onListChanged?.('prompts'));
    connection.onNotification(Notification.ResourcesUpdated, (params) => {
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri === 'string') this.options.onResourceUpdated?.(uri);
    });
    connection.onOtherNotification((method, params) => this.options.onNotification?.(method, params));
  }
}
