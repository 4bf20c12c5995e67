// The server side of one connection. It serves both eras at once, deciding per message: requests that
// carry their protocol version in `_meta` are stateless (2026-07-28, modern-dispatch.ts); everything else
// belongs to the handshake era: initialize with version negotiation, initialized, ping, logging level,
// batches per revision. Results and notifications pass through the codec of the negotiated revision.

import {
  Connection,
  type ConnectionProblem,
  type RequestContext as ConnectionRequestContext,
} from '../jsonrpc/connection.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import type { JsonRpcId } from '../jsonrpc/messages.js';
import type { Transport } from '../jsonrpc/transport.js';
import { codecFor, type RevisionCodec } from './codec.js';
import type { AskOptions } from './context.js';
import { invalidParams, ToolInputError } from './errors.js';
import { isLoggingLevel, passesLevel } from './logging.js';
import { Method, Notification } from './methods.js';
import { dispatchStateless } from './modern-dispatch.js';
import { buildContext, type ContextSource, legacyMissingCapability } from './request-context.js';
import { type CacheHints, isStatelessRequest, MetaKey } from './stateless.js';
import type {
  ClientCapabilities,
  Implementation,
  InitializeResult,
  LoggingLevel,
  ServerCapabilities,
} from './types.js';
import { negotiateVersion } from './versions.js';

export type ServerRequestHandler = (
  params: Record<string, unknown>,
  context: import('./context.js').RequestContext,
  session: ServerSession,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

export type ListKind = 'tools' | 'resources' | 'prompts';

/** What a session needs to know of the server it serves. */
export interface ServerDefinition {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  capabilities(): ServerCapabilities;
  handler(method: string): ServerRequestHandler | undefined;
  sessionClosed?(session: ServerSession): void;
  /** A URI gained its first subscriber on this session, or lost its last one. */
  subscriptionChanged?(session: ServerSession, uri: string, subscribed: boolean): void;
  /** Notifications from the client other than the lifecycle's (roots/list_changed, say). */
  clientNotification?(method: string, params: unknown, session: ServerSession): void;
}

export interface ServerSessionOptions {
  /** Timeout for requests the server sends to the client, in milliseconds. */
  timeout?: number;
  onProblem?: (problem: ConnectionProblem) => void;
  /** Cache hints on list and read results of the stateless revision (0 ms, private). */
  cache?: CacheHints;
}

interface Listener {
  tools: boolean;
  resources: boolean;
  prompts: boolean;
  uris: Set<string>;
}

const LIST_CHANGED: Record<ListKind, string> = {
  tools: Notification.ToolsListChanged,
  resources: Notification.ResourcesListChanged,
  prompts: Notification.PromptsListChanged,
};

export class ServerSession {
  readonly connection: Connection;
  readonly cacheHints: CacheHints;
  private codec: RevisionCodec | undefined;
  private clientCapabilitiesValue: ClientCapabilities = {};
  private clientInfoValue: Implementation | undefined;
  private ready = false;
  /** Minimum level of notifications/message; unset, every message is sent. */
  private logLevel: LoggingLevel | undefined;
  /** URIs the client subscribed to with resources/subscribe (handshake era). */
  private readonly legacySubscriptions = new Set<string>();
  /** Open subscriptions/listen streams (stateless era), by the id of the request that opened them. */
  private readonly listeners = new Map<JsonRpcId, Listener>();
  /** Per-session storage handed to handlers as `context.sessionState`. */
  readonly state = new Map<unknown, unknown>();

  constructor(
    transport: Transport,
    readonly server: ServerDefinition,
    options: ServerSessionOptions = {},
  ) {
    this.cacheHints = options.cache ?? { ttlMs: 0, cacheScope: 'private' };
    this.connection = new Connection(transport, {
      timeout: options.timeout,
      onProblem: options.onProblem,
      batchPolicy: () =>
        this.codec?.batches
          ? undefined
          : this.codec
            ? `Invalid Request: JSON-RPC batches are not supported in protocol revision ${this.codec.version} (only in 2025-03-26); send each message on its own`
            : 'Invalid Request: a batch cannot carry "initialize"; send "initialize" on its own first',
    });
    this.connection.onRequest(Method.Ping, () => ({}));
    this.connection.onOtherRequest((params, ctx) => this.dispatch(ctx.method, params, ctx));
    this.connection.onNotification(Notification.Initialized, () => {
      this.ready = true;
    });
    this.connection.onOtherNotification((method, params) =>
      this.server.clientNotification?.(method, params, this),
    );
    this.connection.onClose(() => {
      for (const id of [...this.listeners.keys()]) this.dropListener(id);
      for (const uri of this.legacySubscriptions) this.server.subscriptionChanged?.(this, uri, false);
      this.legacySubscriptions.clear();
      this.server.sessionClosed?.(this);
    });
  }

  start(): this {
    this.connection.start();
    return this;
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** The revision negotiated with initialize (handshake era only). */
  get protocolVersion(): string | undefined {
    return this.codec?.version;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.clientCapabilitiesValue;
  }

  get clientInfo(): Implementation | undefined {
    return this.clientInfoValue;
  }

  /** Whether the client has sent notifications/initialized. */
  get initialized(): boolean {
    return this.ready;
  }

  /** Sends a notification of the handshake era, encoded for its revision; nothing before the handshake. */
  notify(method: string, params: Record<string, unknown> = {}, relatedRequestId?: JsonRpcId): void {
    if (!this.codec) return;
    this.connection.notify(method, this.codec.encodeNotification(method, params), { relatedRequestId });
  }

  /** Sends a log message if it passes the level the client set (handshake era). */
  log(level: LoggingLevel, data: unknown, logger?: string, relatedRequestId?: JsonRpcId): void {
    if (this.logLevel && !passesLevel(level, this.logLevel)) return;
    const params = logger === undefined ? { level, data } : { level, logger, data };
    this.notify(Notification.Message, params, relatedRequestId);
  }

  // ---- subscriptions, in both eras ----

  isSubscribed(uri: string): boolean {
    if (this.legacySubscriptions.has(uri)) return true;
    for (const listener of this.listeners.values()) if (listener.uris.has(uri)) return true;
    return false;
  }

  /** resources/subscribe and resources/unsubscribe. */
  setLegacySubscription(uri: string, subscribed: boolean): void {
    const before = this.isSubscribed(uri);
    if (subscribed) this.legacySubscriptions.add(uri);
    else this.legacySubscriptions.delete(uri);
    if (before !== this.isSubscribed(uri)) this.server.subscriptionChanged?.(this, uri, !before);
  }

  /** A list changed: tell the client, in whichever era it listens. */
  listChanged(kind: ListKind): void {
    if (this.ready) this.notify(LIST_CHANGED[kind]);
    for (const [id, listener] of this.listeners) {
      if (listener[kind]) this.notifyListener(id, LIST_CHANGED[kind], {});
    }
  }

  /** A resource changed: tell every subscription of this session that covers it. */
  resourceUpdated(uri: string): void {
    if (this.legacySubscriptions.has(uri)) this.notify(Notification.ResourcesUpdated, { uri });
    for (const [id, listener] of this.listeners) {
      if (listener.uris.has(uri)) this.notifyListener(id, Notification.ResourcesUpdated, { uri });
    }
  }

  /** subscriptions/listen: acknowledges what it will honour, then stays open until cancelled. */
  async listen(
    params: Record<string, unknown>,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> {
    const filter = params.notifications as Record<string, unknown> | undefined;
    if (typeof filter !== 'object' || filter === null) {
      throw invalidParams(
        'Invalid params: subscriptions/listen needs "notifications", e.g. {"toolsListChanged": true}',
      );
    }
    const capabilities = this.server.capabilities();
    const uris = Array.isArray(filter.resourceSubscriptions)
      ? filter.resourceSubscriptions.filter((u): u is string => typeof u === 'string')
      : [];
    const listener: Listener = {
      tools: filter.toolsListChanged === true && capabilities.tools !== undefined,
      resources: filter.resourcesListChanged === true && capabilities.resources !== undefined,
      prompts: filter.promptsListChanged === true && capabilities.prompts !== undefined,
      uris: new Set(capabilities.resources ? uris : []),
    };
    const acknowledged: Record<string, unknown> = {};
    if (listener.tools) acknowledged.toolsListChanged = true;
    if (listener.resources) acknowledged.resourcesListChanged = true;
    if (listener.prompts) acknowledged.promptsListChanged = true;
    if (listener.uris.size > 0) acknowledged.resourceSubscriptions = [...listener.uris];
    const newly = [...listener.uris].filter((uri) => !this.isSubscribed(uri));
    this.listeners.set(ctx.id, listener);
    // The acknowledgement is the first message carrying this subscription's id.
    this.notifyListener(ctx.id, 'notifications/subscriptions/acknowledged', { notifications: acknowledged });
    for (const uri of newly) this.server.subscriptionChanged?.(this, uri, true);
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    this.dropListener(ctx.id);
    return {
      resultType: 'complete',
      _meta: { [MetaKey.SubscriptionId]: ctx.id, [MetaKey.ServerInfo]: this.server.info },
    };
  }

  private notifyListener(id: JsonRpcId, method: string, params: Record<string, unknown>): void {
    this.connection.notify(
      method,
      { ...params, _meta: { [MetaKey.SubscriptionId]: id } },
      { relatedRequestId: id },
    );
  }

  private dropListener(id: JsonRpcId): void {
    const listener = this.listeners.get(id);
    if (!listener) return;
    this.listeners.delete(id);
    for (const uri of listener.uris) {
      if (!this.isSubscribed(uri)) this.server.subscriptionChanged?.(this, uri, false);
    }
  }

  // ---- the handshake era ----

  private dispatch(
    method: string,
    params: unknown,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown> {
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
      throw invalidParams(`Invalid params: "${method}" takes an object`);
    }
    if (isStatelessRequest(params))
      return dispatchStateless(this, method, params as Record<string, unknown>, ctx);
    if (method === Method.Initialize) return this.initialize(params);
    if (method === Method.LoggingSetLevel) return this.setLevel(params);
    return this.dispatchLegacy(method, (params ?? {}) as Record<string, unknown>, ctx);
  }

  private initialize(params: unknown): Record<string, unknown> {
    if (this.codec) {
      throw new JsonRpcError(ErrorCode.InvalidRequest, 'Invalid Request: the session is already initialized');
    }
    if (typeof params !== 'object' || params === null) {
      throw invalidParams(
        'Invalid params: "initialize" needs an object with "protocolVersion" and "clientInfo"',
      );
    }
    const { protocolVersion, capabilities, clientInfo } = params as Record<string, unknown>;
    if (typeof protocolVersion !== 'string') {
      throw invalidParams('Invalid params: "protocolVersion" must be a string such as "2025-11-25"');
    }
    if (capabilities !== undefined && (typeof capabilities !== 'object' || capabilities === null)) {
      throw invalidParams('Invalid params: "capabilities" must be an object');
    }
    if (clientInfo !== undefined && !isImplementation(clientInfo)) {
      throw invalidParams('Invalid params: "clientInfo" must be an object with string "name" and "version"');
    }
    // Tolerant of older or looser clients: missing capabilities are no capabilities.
    this.clientCapabilitiesValue = (capabilities as ClientCapabilities | undefined) ?? {};
    this.clientInfoValue = clientInfo as Implementation | undefined;
    const codec = codecFor(negotiateVersion(protocolVersion));
    this.codec = codec;
    const result: InitializeResult = {
      protocolVersion: codec.version,
      capabilities: this.server.capabilities(),
      serverInfo: this.server.info,
    };
    if (this.server.instructions !== undefined) result.instructions = this.server.instructions;
    return codec.encodeResult(Method.Initialize, result as unknown as Record<string, unknown>);
  }

  private setLevel(params: unknown): Record<string, unknown> {
    this.requireInitialized(Method.LoggingSetLevel);
    const level = (params as { level?: unknown } | undefined)?.level;
    if (!isLoggingLevel(level)) {
      throw invalidParams(
        `Invalid params: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency; got ${JSON.stringify(level)}`,
      );
    }
    this.logLevel = level;
    return {};
  }

  private requireInitialized(method: string): RevisionCodec {
    if (!this.codec) {
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        `Invalid Request: "${method}" was sent before "initialize"; send "initialize" first (only "ping" may come before it), or name the protocol version in _meta (2026-07-28)`,
      );
    }
    return this.codec;
  }

  private async dispatchLegacy(
    method: string,
    params: Record<string, unknown>,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> {
    const handler = this.server.handler(method);
    if (!handler) throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    const codec = this.requireInitialized(method);
    const context = buildContext(new HandshakeRequestSource(this, codec, ctx));
    let result: Record<string, unknown>;
    try {
      result = await handler(params, context, this);
    } catch (error) {
      if (!(error instanceof ToolInputError)) throw error;
      if (!codec.toolInputErrorsAsResults)
        throw invalidParams(error.message, { tool: error.tool, issues: error.issues });
      result = { content: [{ type: 'text', text: error.message }], isError: true };
    }
    return codec.encodeResult(method, result);
  }
}

/** What a handshake-era handler's context reaches through: the session and the connection's request. */
class HandshakeRequestSource implements ContextSource {
  constructor(
    private readonly session: ServerSession,
    private readonly codec: RevisionCodec,
    private readonly request: ConnectionRequestContext,
  ) {}

  get requestId(): JsonRpcId {
    return this.request.id;
  }
  get protocolVersion(): string {
    return this.codec.version;
  }
  get clientCapabilities(): ClientCapabilities {
    return this.session.clientCapabilities;
  }
  get clientInfo(): Implementation | undefined {
    return this.session.clientInfo;
  }
  get sessionState(): Map<unknown, unknown> {
    return this.session.state;
  }
  get signal(): AbortSignal {
    return this.request.signal;
  }

  sendProgress(update: { progress: number; total?: number; message?: string }): void {
    // The revision's codec knows what a progress notification may carry (no message before 2025-03-26).
    this.request.sendProgress(this.codec.encodeNotification(Notification.Progress, update) as typeof update);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.session.log(level, data, logger, this.request.id);
  }

  ask<T>(method: string, params: unknown, options?: AskOptions): Promise<T> {
    // A session of an older revision cannot carry elicitation (or its URL mode), whatever the client
    // declared: they used to go on the wire regardless.
    if (method === Method.ElicitationCreate) {
      const url = (params as { mode?: unknown }).mode === 'url';
      const elicitation = this.codec.elicitation;
      if (elicitation === 'none' || (url && elicitation === 'form')) {
        const since = url ? '2025-11-25' : '2025-06-18';
        return Promise.reject(
          new Error(
            `"${method}"${url ? ' in URL mode' : ''} does not exist in protocol revision ${this.codec.version}: it came with ${since}`,
          ),
        );
      }
    }
    return this.session.connection.request<T>(method, params, {
      signal: this.request.signal,
      timeout: options?.timeout,
      relatedRequestId: this.request.id,
    });
  }

  missingCapability(capability: string, method: string): Error {
    return legacyMissingCapability(capability, method);
  }
}

function isImplementation(value: unknown): value is Implementation {
  if (typeof value !== 'object' || value === null) return false;
  const { name, version } = value as Record<string, unknown>;
  return typeof name === 'string' && (version === undefined || typeof version === 'string');
}
