// Builds the one context a handler gets, from what an era knows about the request: the handshake era
// from its session, the stateless era from the request's own envelope. The era decides how to log and
// how to ask the client; the handler never sees the difference.

import type { AbortHook, RequestContext as ConnectionRequestContext } from '../jsonrpc/connection.js';
import type { JsonRpcId } from '../jsonrpc/messages.js';
import type { AuthInfo } from '../jsonrpc/transport.js';
import type { AskOptions, RequestContext, TaskStarter } from './context.js';
import { CapabilityError } from './errors.js';
import type { Extensions } from './extensions.js';
import { Method } from './methods.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
} from './types.js';

type ProgressUpdate = { progress: number; total?: number; message?: string };

export interface ContextSource {
  requestId: JsonRpcId;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  sessionState: Map<unknown, unknown>;
  /** Read only when a handler reads `context.signal` (making one costs more than the rest of a request). */
  readonly signal: AbortSignal;
  /** The request's cancellation without an AbortSignal, where the era has it (see abortHookOf). */
  readonly abortHook?: AbortHook;
  /** The verified caller, when the transport authenticated the request (HTTP with authorization on). */
  readonly auth: AuthInfo | undefined;
  /** The extensions both sides declared, as the era negotiated them. */
  readonly extensions: Extensions;
  /** Offered when the request may become a task. */
  readonly tasks?: TaskStarter;
  sendProgress(update: ProgressUpdate): void;
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** Sends a request to the client (or asks for it through an input_required result). */
  ask<T>(method: string, params: unknown, options?: AskOptions): Promise<T>;
  /** How a missing client capability is reported in this era. */
  missingCapability(capability: string, method: string): Error;
}

/**
 * What both eras' sources take from the request as the connection delivered it: its id, its cancellation
 * and who sent it. An era's source adds what the era knows (its version, the client, storage, asking).
 */
export abstract class RequestSource {
  constructor(protected readonly request: ConnectionRequestContext) {}

  get requestId(): JsonRpcId {
    return this.request.id;
  }
  get signal(): AbortSignal {
    return this.request.signal;
  }
  get abortHook(): AbortHook | undefined {
    return this.request.abortHook;
  }
  get auth(): AuthInfo | undefined {
    return this.request.auth;
  }
}

export function buildContext(source: ContextSource): RequestContext {
  return new HandlerContext(source);
}

/**
 * The request's cancellation as an AbortHook, for code that only passes it on to a request of its own
 * (the proxy): cheaper than `context.signal`, which makes an AbortSignal. Undefined for a context that
 * has none (a task's): use `signal` then.
 */
export function abortHookOf(context: RequestContext): AbortHook | undefined {
  return context instanceof HandlerContext ? context.abortHook : undefined;
}

/**
 * The context as a class: one object per request instead of a closure per method. The methods are
 * getters that hand out functions bound on first use, so `async (args, { progress, signal }) => ...`
 * works as well as `ctx.progress(...)`.
 */
class HandlerContext implements RequestContext {
  readonly requestId: JsonRpcId;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly auth: AuthInfo | undefined;
  readonly tasks: TaskStarter | undefined;
  private lastProgress = Number.NEGATIVE_INFINITY;
  private bound: Partial<Pick<RequestContext, 'progress' | 'log' | 'sample' | 'elicit' | 'listRoots'>> = {};

  constructor(private readonly source: ContextSource) {
    this.requestId = source.requestId;
    this.protocolVersion = source.protocolVersion;
    this.clientCapabilities = source.clientCapabilities;
    this.clientInfo = source.clientInfo;
    this.auth = source.auth;
    this.tasks = source.tasks;
  }

  /** Read when a handler asks: a session's storage is made on first use. */
  get sessionState(): Map<unknown, unknown> {
    return this.source.sessionState;
  }

  /** Worked out on first read: few handlers look. */
  get extensions(): Extensions {
    return this.source.extensions;
  }

  get signal(): AbortSignal {
    return this.source.signal;
  }

  get abortHook(): AbortHook | undefined {
    return this.source.abortHook;
  }

  get progress(): RequestContext['progress'] {
    this.bound.progress ??= (progress, total, message) => {
      // The specification requires progress to increase with every notification.
      if (!(progress > this.lastProgress)) return;
      this.lastProgress = progress;
      const update: ProgressUpdate = { progress };
      if (total !== undefined) update.total = total;
      if (message !== undefined) update.message = message;
      this.source.sendProgress(update);
    };
    return this.bound.progress;
  }

  get log(): RequestContext['log'] {
    this.bound.log ??= (level, data, logger) => this.source.log(level, data, logger);
    return this.bound.log;
  }

  get sample(): RequestContext['sample'] {
    this.bound.sample ??= (params: CreateMessageRequestParams, options?: AskOptions) =>
      this.ask<CreateMessageResult>(Method.SamplingCreateMessage, 'sampling', params, options);
    return this.bound.sample;
  }

  get elicit(): RequestContext['elicit'] {
    this.bound.elicit ??= (params: ElicitRequestParams, options?: AskOptions) => {
      if (params.mode === 'url') {
        const elicitation = this.clientCapabilities.elicitation as Record<string, unknown> | undefined;
        if (!elicitation || !('url' in elicitation)) {
          return Promise.reject(this.source.missingCapability('elicitation.url', Method.ElicitationCreate));
        }
      }
      return this.ask<ElicitResult>(Method.ElicitationCreate, 'elicitation', params, options);
    };
    return this.bound.elicit;
  }

  get listRoots(): RequestContext['listRoots'] {
    this.bound.listRoots ??= (options?: AskOptions) =>
      this.ask<ListRootsResult>(Method.RootsList, 'roots', {}, options);
    return this.bound.listRoots;
  }

  private ask<T>(method: string, capability: string, params: unknown, options?: AskOptions): Promise<T> {
    if (!(capability in this.clientCapabilities)) {
      return Promise.reject(this.source.missingCapability(capability, method));
    }
    return this.source.ask<T>(method, params, options);
  }
}

export function handshakeMissingCapability(capability: string, method: string): Error {
  return new CapabilityError(capability, method);
}
