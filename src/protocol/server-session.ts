// The server side of one MCP session over one connection: the lifecycle (initialize, version negotiation,
// initialized), ping, logging level, batches per revision, and the context each handler gets. Results and
// notifications pass through the codec of the negotiated revision on their way out.

import { Connection, type ConnectionProblem } from '../jsonrpc/connection.js';
import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import type { JsonRpcId } from '../jsonrpc/messages.js';
import type { Transport } from '../transport/transport.js';
import { codecFor, type RevisionCodec } from './codec.js';
import type { AskOptions, RequestContext } from './context.js';
import { CapabilityError, invalidParams, ToolInputError } from './errors.js';
import { isLoggingLevel, passesLevel } from './logging.js';
import { Method, Notification } from './methods.js';
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
  context: RequestContext,
  session: ServerSession,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** What a session needs to know of the server it serves. */
export interface ServerDefinition {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  capabilities(): ServerCapabilities;
  handler(method: string): ServerRequestHandler | undefined;
  /** Called once the client has finished the handshake, and when the session ends. */
  sessionOpened?(session: ServerSession): void;
  sessionClosed?(session: ServerSession): void;
  /** Notifications from the client other than the lifecycle's (roots/list_changed, say). */
  clientNotification?(method: string, params: unknown, session: ServerSession): void;
}

export interface ServerSessionOptions {
  /** Timeout for requests the server sends to the client, in milliseconds. */
  timeout?: number;
  onProblem?: (problem: ConnectionProblem) => void;
}

export class ServerSession {
  readonly connection: Connection;
  private codec: RevisionCodec | undefined;
  private clientCapabilitiesValue: ClientCapabilities = {};
  private clientInfoValue: Implementation | undefined;
  private ready = false;
  /** Minimum level of notifications/message; unset, every message is sent. */
  private logLevel: LoggingLevel | undefined;
  /** URIs the client subscribed to with resources/subscribe. */
  readonly subscriptions = new Set<string>();
  /** Per-session storage handed to handlers as `context.sessionState`. */
  readonly state = new Map<unknown, unknown>();

  constructor(
    transport: Transport,
    private readonly server: ServerDefinition,
    options: ServerSessionOptions = {},
  ) {
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
    this.connection.onRequest(Method.Initialize, (params) => this.initialize(params));
    this.connection.onRequest(Method.Ping, () => ({}));
    this.connection.onRequest(Method.LoggingSetLevel, (params) => {
      this.requireInitialized(Method.LoggingSetLevel);
      const level = (params as { level?: unknown } | undefined)?.level;
      if (!isLoggingLevel(level)) {
        throw invalidParams(
          `Invalid params: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency; got ${JSON.stringify(level)}`,
        );
      }
      this.logLevel = level;
      return {};
    });
    this.connection.onNotification(Notification.Initialized, () => {
      this.ready = true;
    });
    this.connection.onOtherRequest((params, ctx) => this.dispatch(ctx.method, params, ctx.id, ctx));
    this.connection.onOtherNotification((method, params) => {
      if (this.codec) this.server.clientNotification?.(method, params, this);
    });
    this.connection.onClose(() => this.server.sessionClosed?.(this));
  }

  start(): this {
    this.connection.start();
    return this;
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** The negotiated revision, once `initialize` was answered. */
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

  /** Sends a notification, encoded for the session's revision. Nothing is sent before the handshake. */
  notify(method: string, params: Record<string, unknown> = {}, relatedRequestId?: JsonRpcId): void {
    if (!this.codec) return;
    this.connection.notify(method, this.codec.encodeNotification(method, params), { relatedRequestId });
  }

  /** Sends a log message if it passes the level the client set. */
  log(level: LoggingLevel, data: unknown, logger?: string, relatedRequestId?: JsonRpcId): void {
    if (this.logLevel && !passesLevel(level, this.logLevel)) return;
    const params = logger === undefined ? { level, data } : { level, logger, data };
    this.notify(Notification.Message, params, relatedRequestId);
  }

  private initialize(params: unknown): InitializeResult | Record<string, unknown> {
    if (this.codec) {
      throw new JsonRpcError(ErrorCode.InvalidRequest, 'Invalid Request: the session is already initialized');
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
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
    this.server.sessionOpened?.(this);
    return codec.encodeResult(Method.Initialize, result as unknown as Record<string, unknown>);
  }

  private requireInitialized(method: string): RevisionCodec {
    if (!this.codec) {
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        `Invalid Request: "${method}" was sent before "initialize"; send "initialize" first (only "ping" may come before it)`,
      );
    }
    return this.codec;
  }

  private async dispatch(
    method: string,
    params: unknown,
    requestId: JsonRpcId,
    connectionContext: {
      signal: AbortSignal;
      sendProgress(p: { progress: number; total?: number; message?: string }): void;
    },
  ): Promise<Record<string, unknown>> {
    const handler = this.server.handler(method);
    if (!handler) throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    const codec = this.requireInitialized(method);
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
      throw invalidParams(`Invalid params: "${method}" takes an object`);
    }
    const context = this.makeContext(requestId, codec, connectionContext);
    let result: Record<string, unknown>;
    try {
      result = await handler((params ?? {}) as Record<string, unknown>, context, this);
    } catch (error) {
      if (!(error instanceof ToolInputError)) throw error;
      if (!codec.toolInputErrorsAsResults)
        throw invalidParams(error.message, { tool: error.tool, issues: error.issues });
      result = { content: [{ type: 'text', text: error.message }], isError: true };
    }
    return codec.encodeResult(method, result);
  }

  private makeContext(
    requestId: JsonRpcId,
    codec: RevisionCodec,
    connectionContext: {
      signal: AbortSignal;
      sendProgress(p: { progress: number; total?: number; message?: string }): void;
    },
  ): RequestContext {
    let lastProgress = Number.NEGATIVE_INFINITY;
    const ask = <T>(
      method: string,
      capability: string | undefined,
      params: unknown,
      options?: AskOptions,
    ) => {
      if (capability && !(capability in this.clientCapabilitiesValue)) {
        return Promise.reject(new CapabilityError(capability, method));
      }
      return this.connection.request<T>(method, params, {
        signal: connectionContext.signal,
        timeout: options?.timeout,
      });
    };
    return {
      signal: connectionContext.signal,
      requestId,
      protocolVersion: codec.version,
      clientCapabilities: this.clientCapabilitiesValue,
      clientInfo: this.clientInfoValue,
      sessionState: this.state,
      progress: (progress, total, message) => {
        // The specification requires progress to increase with every notification.
        if (!(progress > lastProgress)) return;
        lastProgress = progress;
        const update: { progress: number; total?: number; message?: string } = { progress };
        if (total !== undefined) update.total = total;
        if (message !== undefined && codec.version >= '2025-03-26') update.message = message;
        connectionContext.sendProgress(update);
      },
      log: (level, data, logger) => this.log(level, data, logger, requestId),
      sample: (params, options) => ask(Method.SamplingCreateMessage, 'sampling', params, options),
      elicit: (params, options) => {
        if (params.mode === 'url') {
          const elicitation = this.clientCapabilitiesValue.elicitation as Record<string, unknown> | undefined;
          if (!elicitation || !('url' in elicitation)) {
            return Promise.reject(new CapabilityError('elicitation.url', Method.ElicitationCreate));
          }
        }
        return ask(Method.ElicitationCreate, 'elicitation', params, options);
      },
      listRoots: (options) => ask(Method.RootsList, 'roots', {}, options),
    };
  }
}

function isImplementation(value: unknown): value is Implementation {
  if (typeof value !== 'object' || value === null) return false;
  const { name, version } = value as Record<string, unknown>;
  return typeof name === 'string' && (version === undefined || typeof version === 'string');
}
