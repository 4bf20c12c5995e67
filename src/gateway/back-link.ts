// What ties one back server (an McpClient the proxy holds) to the front: the front sessions it serves
// and the front requests in flight on it. Whatever the back server sends on its own (sampling, elicitation
// and roots requests, log messages, list changes, resource updates) goes to the front through here: a
// request to the front request in flight (the front's era then asks its client in its own way: a request
// in the handshake era, an input_required round in 2026-07-28), a notification to every session it serves.

import type { ClientHandlerContext } from '../client/answers.js';
import type { McpClientOptions } from '../client/client.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import type { RequestContext } from '../protocol/context.js';
import { Method } from '../protocol/methods.js';
import type { ServerSession } from '../protocol/server-session.js';
import { InputRequired } from '../protocol/stateless.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  LoggingLevel,
  Root,
} from '../protocol/types.js';

/** A front request being served by the back: its context, and how to end it early. */
export interface InFlight {
  readonly context: RequestContext;
  /** The front session (the client) it came from. */
  readonly owner: unknown;
  /** Ends the front request with this error (an InputRequired, which the front's era answers). */
  interrupt(error: Error): void;
}

export class BackLink {
  /** Front sessions whose notifications come from this back server. */
  readonly sessions = new Set<ServerSession>();
  /**
   * For a back shared by many front sessions: every session it may notify, those that only listen
   * (a 2026-07-28 subscriptions/listen stream) included. Its own `sessions` otherwise.
   */
  audience: (() => Iterable<ServerSession>) | undefined;
  private readonly inflight: InFlight[] = [];

  private get listeners(): Iterable<ServerSession> {
    return this.audience?.() ?? this.sessions;
  }

  /**
   * Registers a front request for the duration of its call; returns the function that forgets it. The
   * entry is the back call's `tag`: what the back server asks on that call's behalf names it.
   */
  track(entry: InFlight): () => void {
    if (this.reserved > 0) this.reserved--;
    this.inflight.push(entry);
    return () => {
      const at = this.inflight.indexOf(entry);
      if (at !== -1) this.inflight.splice(at, 1);
    };
  }

  get busy(): boolean {
    return this.load > 0;
  }

  /** How many front requests are in flight on this back, or about to be (reserve). */
  get load(): number {
    return this.inflight.length + this.reserved;
  }

  /** A request was given this back and will be tracked in a moment: it counts as busy from now. */
  reserve(): void {
    this.reserved++;
  }

  private reserved = 0;

  /**
   * The client callbacks of the back connection, for what the front client can answer: the back server is
   * offered exactly the front client's capabilities (undefined: everything, for a back shared by many).
   */
  clientOptions(
    capabilities: ClientCapabilities | undefined,
  ): Pick<
    McpClientOptions,
    | 'onSampling'
    | 'onElicitation'
    | 'elicitationUrl'
    | 'roots'
    | 'onLog'
    | 'onListChanged'
    | 'onResourceUpdated'
    | 'onNotification'
  > {
    const all = capabilities === undefined;
    const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
    return {
      onSampling:
        all || capabilities.sampling
          ? (params, context) => this.ask<CreateMessageResult>(Method.SamplingCreateMessage, params, context)
          : undefined,
      onElicitation:
        all || elicitation
          ? (params, context) => this.ask<ElicitResult>(Method.ElicitationCreate, params, context)
          : undefined,
      elicitationUrl: all || (elicitation !== undefined && 'url' in elicitation),
      roots:
        all || capabilities.roots
          ? async () => (await this.ask<{ roots: Root[] }>(Method.RootsList, {}, undefined)).roots
          : undefined,
      onLog: (message) => this.log(message.level, message.data, message.logger),
      onListChanged: (list) => {
        for (const session of this.listeners) session.listChanged(list);
      },
      onResourceUpdated: (uri) => {
        for (const session of this.listeners) session.resourceUpdated(uri);
      },
      onNotification: (method, params) => {
        for (const session of this.listeners) {
          if (session.initialized) session.notify(method, (params ?? {}) as Record<string, unknown>);
        }
      },
    };
  }

  /**
   * A request of the back server's, put to the front: to the front request it was asked on behalf of
   * (an input_required round of that call, or a request on that call's HTTP stream). A server on stdio
   * names none: then the latest request in flight asks, if every request in flight is of one client (a
   * session's own server); requests of several clients in flight make it refused, not guessed, since
   * another client must not be asked. With none (roots asked after initialized), a handshake session is
   * asked.
   */
  private async ask<T>(
    method: string,
    params: unknown,
    context: ClientHandlerContext | undefined,
  ): Promise<T> {
    const current = this.callFor(method, context?.tag);
    if (current) {
      try {
        return (await askThrough(current.context, method, params)) as T;
      } catch (error) {
        // A 2026-07-28 caller that did not declare what its call asks for is told so (-32021), not the back
        // server. Not for roots: a handshake server asks for them of its own accord (after initialized),
        // not for the call in flight, which must not end for it.
        const missing =
          method !== Method.RootsList &&
          error instanceof JsonRpcError &&
          error.code === ErrorCode.MissingRequiredClientCapability;
        if (!(error instanceof InputRequired) && !missing) throw error;
        // The front speaks 2026-07-28: its request ends with input_required and comes back with the
        // answer. The back's call is cancelled meanwhile, and runs again then.
        current.interrupt(error as Error);
        throw new JsonRpcError(
          ErrorCode.InternalError,
          'the client is asked through an input_required round; this call is cancelled and sent again',
        );
      }
    }
    const session = [...this.sessions].find((s) => s.initialized);
    if (!session) {
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        `"${method}" cannot be put to a client now: no request of it is in flight through the proxy`,
      );
    }
    const capability = method.split('/')[0]!.replace('createMessage', '');
    const wanted = capability === 'sampling' ? 'sampling' : capability;
    if (!(wanted in session.clientCapabilities)) {
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        `"${method}" needs the client capability "${wanted}", which the client did not declare`,
      );
    }
    return session.connection.request<T>(method, params as Record<string, unknown>);
  }

  private callFor(method: string, tag: unknown): InFlight | undefined {
    if (tag !== undefined) {
      const named = this.inflight.find((entry) => entry === tag);
      if (named) return named;
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        `"${method}" was asked for a request that has already ended`,
      );
    }
    const latest = this.inflight.at(-1);
    if (latest && this.inflight.some((entry) => entry.owner !== latest.owner)) {
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        `"${method}" names no request, and requests of ${new Set(this.inflight.map((e) => e.owner)).size} clients are in flight on this server: whose it is cannot be told, so it is refused`,
      );
    }
    return latest;
  }

  private log(level: LoggingLevel, data: unknown, logger: string | undefined): void {
    const current = this.inflight.at(-1);
    if (current && !current.context.signal.aborted) {
      current.context.log(level, data, logger);
      return;
    }
    for (const session of this.listeners) session.log(level, data, logger);
  }
}

function askThrough(context: RequestContext, method: string, params: unknown): Promise<unknown> {
  switch (method) {
    case Method.SamplingCreateMessage:
      return context.sample(params as CreateMessageRequestParams);
    case Method.ElicitationCreate:
      return context.elicit(params as ElicitRequestParams);
    default:
      return context.listRoots();
  }
}
