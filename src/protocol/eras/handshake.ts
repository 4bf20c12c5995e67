// The handshake era on the server's side (2024-11-05 … 2025-11-25): initialize negotiates the revision,
// whose codec then shapes every result and notification; logging/setLevel sets the session's level;
// every other request waits for initialize and is served by the server's handler.

import { type RequestContext as ConnectionRequestContext, isPromiseLike } from '../../jsonrpc/connection.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { McpwireError } from '../../jsonrpc/local-errors.js';
import type { JsonRpcId } from '../../jsonrpc/messages.js';
import { codecFor, type RevisionCodec } from '../codec.js';
import type { AskOptions } from '../context.js';
import { invalidParams, ToolInputError } from '../errors.js';
import { type Extensions, extensionsOf, negotiateExtensions } from '../extensions.js';
import { isLoggingLevel, logMessage } from '../logging.js';
import { Method, Notification } from '../methods.js';
import {
  buildContext,
  type ContextSource,
  handshakeMissingCapability,
  RequestSource,
} from '../request-context.js';
import type { ListKind, SessionDescription } from '../server-definition.js';
import { LIST_CHANGED } from '../subscriptions.js';
import type { ClientCapabilities, Implementation, InitializeResult, LoggingLevel } from '../types.js';
import { type HandshakeVersion, negotiateVersion } from '../versions.js';
import { type EraHost, type ServerEra, toolInputErrorResult } from './era.js';

export class HandshakeEra implements ServerEra {
  private codec: RevisionCodec | undefined;
  clientCapabilities: ClientCapabilities = {};
  clientInfo: Implementation | undefined;
  /** Whether the client has sent notifications/initialized. */
  ready = false;
  /** Minimum level of notifications/message; unset, every message is sent. */
  private logLevel: LoggingLevel | undefined;

  constructor(private readonly host: EraHost) {}

  get version(): string | undefined {
    return this.codec?.version;
  }

  /** What another instance needs to serve this session's next request (see restore). */
  snapshot(): Record<string, unknown> {
    const state: Record<string, unknown> = { ready: this.ready, capabilities: this.clientCapabilities };
    if (this.codec) state.version = this.codec.version;
    if (this.clientInfo) state.clientInfo = this.clientInfo;
    if (this.logLevel) state.logLevel = this.logLevel;
    return state;
  }

  /** Takes up a session negotiated elsewhere (another instance of a fleet), or none at all (sessionless). */
  restore(state: Record<string, unknown>): void {
    if (typeof state.version === 'string') this.codec = codecFor(negotiateVersion(state.version));
    if (typeof state.capabilities === 'object' && state.capabilities !== null) {
      this.clientCapabilities = state.capabilities as ClientCapabilities;
    }
    if (isImplementation(state.clientInfo)) this.clientInfo = state.clientInfo;
    this.logLevel = isLoggingLevel(state.logLevel) ? state.logLevel : undefined;
    this.ready = state.ready === true;
  }

  /** Why a batch is refused now, or undefined while the negotiated revision allows batches. */
  batchRefusal(): string | undefined {
    if (this.codec?.batches) return undefined;
    return this.codec
      ? `Invalid Request: JSON-RPC batches are not supported in protocol revision ${this.codec.version} (only in 2025-03-26); send each message on its own`
      : 'Invalid Request: a batch cannot carry "initialize"; send "initialize" on its own first';
  }

  serve(
    method: string,
    params: Record<string, unknown> | undefined,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown> {
    if (method === Method.Initialize) {
      return this.host.server.openSession ? this.openSession(params) : this.initialize(params);
    }
    if (method === Method.LoggingSetLevel) return this.setLevel(params);
    return this.dispatch(method, params ?? {}, ctx);
  }

  /** Sends a notification encoded for the negotiated revision; nothing before the handshake. */
  notify(method: string, params: Record<string, unknown> = {}, relatedRequestId?: JsonRpcId): void {
    if (!this.codec) return;
    this.host.connection.notify(method, this.codec.encodeNotification(method, params), { relatedRequestId });
  }

  /** Sends a log message if it passes the level the client set. */
  log(level: LoggingLevel, data: unknown, logger?: string, relatedRequestId?: JsonRpcId): void {
    const params = logMessage(level, data, logger, this.logLevel);
    if (params) this.notify(Notification.Message, params, relatedRequestId);
  }

  listChanged(kind: ListKind): void {
    if (this.ready) this.notify(LIST_CHANGED[kind]);
  }

  /** initialize for a server that prepares the session first (openSession), then describes it. */
  private async openSession(params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    const request = this.readInitialize(params);
    const description = await this.host.server.openSession!(this.host.session, {
      protocolVersion: request.protocolVersion,
      capabilities: request.capabilities,
      clientInfo: request.clientInfo,
    });
    return this.answerInitialize(request, description);
  }

  private initialize(params: Record<string, unknown> | undefined): Record<string, unknown> {
    return this.answerInitialize(this.readInitialize(params), undefined);
  }

  private readInitialize(params: Record<string, unknown> | undefined): {
    protocolVersion: HandshakeVersion;
    capabilities: ClientCapabilities;
    clientInfo: Implementation | undefined;
  } {
    if (this.codec) {
      throw new JsonRpcError(ErrorCode.InvalidRequest, 'Invalid Request: the session is already initialized');
    }
    if (typeof params !== 'object' || params === null) {
      throw invalidParams(
        'Invalid params: "initialize" needs an object with "protocolVersion" and "clientInfo"',
      );
    }
    const { protocolVersion, capabilities, clientInfo } = params;
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
    return {
      protocolVersion: negotiateVersion(protocolVersion),
      capabilities: (capabilities as ClientCapabilities | undefined) ?? {},
      clientInfo: clientInfo as Implementation | undefined,
    };
  }

  private answerInitialize(
    request: {
      protocolVersion: HandshakeVersion;
      capabilities: ClientCapabilities;
      clientInfo: Implementation | undefined;
    },
    description: SessionDescription | undefined,
  ): Record<string, unknown> {
    if (this.codec) {
      throw new JsonRpcError(ErrorCode.InvalidRequest, 'Invalid Request: the session is already initialized');
    }
    this.clientCapabilities = request.capabilities;
    this.clientInfo = request.clientInfo;
    const codec = codecFor(request.protocolVersion);
    this.codec = codec;
    this.host.persist();
    const { server } = this.host;
    const result: InitializeResult = {
      protocolVersion: codec.version,
      capabilities: description?.capabilities ?? server.capabilities(),
      serverInfo: description?.info ?? server.info,
    };
    const instructions = description ? description.instructions : server.instructions;
    if (instructions !== undefined) result.instructions = instructions;
    return codec.encodeResult(Method.Initialize, result as unknown as Record<string, unknown>);
  }

  private setLevel(params: Record<string, unknown> | undefined): Record<string, unknown> {
    this.requireInitialized(Method.LoggingSetLevel);
    const level = params?.level;
    if (!isLoggingLevel(level)) {
      throw invalidParams(
        `Invalid params: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency; got ${JSON.stringify(level)}`,
      );
    }
    this.logLevel = level;
    this.host.server.loggingLevelChanged?.(this.host.session, level);
    this.host.persist();
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

  /**
   * Runs the method's handler and encodes its result for the revision. A handler that answers at once is
   * answered at once, in the turn its request came (no promise per layer): only one that waits is waited on.
   */
  private dispatch(
    method: string,
    params: Record<string, unknown>,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown> {
    const handler = this.host.server.handler(method);
    if (!handler) {
      if (method.startsWith('tasks/') && this.host.server.tasks) {
        throw new JsonRpcError(
          ErrorCode.MethodNotFound,
          `Method not found: ${method} belongs to the tasks extension, which this server serves on protocol 2026-07-28 only (not the experimental tasks of 2025-11-25)`,
        );
      }
      throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    }
    const codec = this.requireInitialized(method);
    const context = buildContext(new HandshakeRequestSource(this, this.host, codec, ctx));
    let result: Promise<Record<string, unknown>> | Record<string, unknown>;
    try {
      result = handler(params, context, this.host.session);
    } catch (error) {
      return codec.encodeResult(method, toolInputFailure(codec, error));
    }
    if (isPromiseLike(result)) {
      return Promise.resolve(result).then(
        (value) => codec.encodeResult(method, value),
        (error: unknown) => codec.encodeResult(method, toolInputFailure(codec, error)),
      );
    }
    return codec.encodeResult(method, result as Record<string, unknown>);
  }
}

/**
 * Invalid tool arguments as this revision reports them: a tool result (isError) from 2025-11-25 on, an
 * invalid-params error before. Any other error is thrown on as it is.
 */
function toolInputFailure(codec: RevisionCodec, error: unknown): Record<string, unknown> {
  if (!(error instanceof ToolInputError)) throw error;
  if (!codec.toolInputErrorsAsResults) {
    throw invalidParams(error.message, { tool: error.tool, issues: error.issues });
  }
  return toolInputErrorResult(error);
}

/** What a handshake-era handler's context reaches through: the era, the session and the request. */
class HandshakeRequestSource extends RequestSource implements ContextSource {
  private negotiated: Extensions | undefined;

  constructor(
    private readonly era: HandshakeEra,
    private readonly host: EraHost,
    private readonly codec: RevisionCodec,
    request: ConnectionRequestContext,
  ) {
    super(request);
  }

  get protocolVersion(): string {
    return this.codec.version;
  }
  get clientCapabilities(): ClientCapabilities {
    return this.era.clientCapabilities;
  }
  get clientInfo(): Implementation | undefined {
    return this.era.clientInfo;
  }
  get sessionState(): Map<unknown, unknown> {
    return this.host.session.state;
  }
  get extensions(): Extensions {
    this.negotiated ??= negotiateExtensions(
      extensionsOf(this.host.server.capabilities()),
      extensionsOf(this.era.clientCapabilities),
      this.codec.excludedExtensions,
    );
    return this.negotiated;
  }

  sendProgress(update: { progress: number; total?: number; message?: string }): void {
    // The revision's codec knows what a progress notification may carry (no message before 2025-03-26).
    this.request.sendProgress(this.codec.encodeNotification(Notification.Progress, update) as typeof update);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.era.log(level, data, logger, this.request.id);
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
          new McpwireError(
            'NOT_IN_REVISION',
            `"${method}"${url ? ' in URL mode' : ''} does not exist in protocol revision ${this.codec.version}: it came with ${since}`,
          ),
        );
      }
    }
    return this.host.connection.request<T>(method, params, {
      signal: this.request.signal,
      timeout: options?.timeout,
      relatedRequestId: this.request.id,
    });
  }

  missingCapability(capability: string, method: string): Error {
    return handshakeMissingCapability(capability, method);
  }
}

/**
 * A handshake-era request served without a session (sessionless serving): the revision its
 * MCP-Protocol-Version header names (2025-03-26 when it names none, as the transport spec says), no
 * client capabilities, and initialized.
 */
export function sessionlessState(protocolVersion: string | undefined): Record<string, unknown> {
  return { version: protocolVersion ?? '2025-03-26', ready: true, capabilities: {} };
}

function isImplementation(value: unknown): value is Implementation {
  if (typeof value !== 'object' || value === null) return false;
  const { name, version } = value as Record<string, unknown>;
  return typeof name === 'string' && (version === undefined || typeof version === 'string');
}
