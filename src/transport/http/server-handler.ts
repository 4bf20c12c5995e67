// The Streamable HTTP endpoint (MCP 2025-11-25, basic/transports): one URL where POST carries messages,
// GET opens the server's stream, and DELETE ends a session. A POST the binding says stands alone (a
// request of the stateless revision, 2026-07-28) needs none of that: it is answered on its own POST.
// Which message opens a session, and which stands alone, is the binding's to say (HttpBinding): this
// file knows HTTP and sessions, not the protocol's methods. It is a plain Node request handler, so it
// can be mounted in any HTTP server or framework; listen.ts runs it on its own.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { monotonicNow } from '../../jsonrpc/clock.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { McpwireError } from '../../jsonrpc/local-errors.js';
import { classify, type JsonRpcId, type JsonRpcRequest } from '../../jsonrpc/messages.js';
import type { AuthInfo, MessageInfo, Transport } from '../../jsonrpc/transport.js';
import type { MessageBus } from '../bus.js';
import { httpExactIds } from '../framing/exact-ids.js';
import { isUtf8, nodeCrypto } from '../platform/builtins.js';
import { principalOf, type Refusal, type ResourceServer } from './auth/resource-server.js';
import type { HttpBinding } from './binding.js';
import { Deadlines, type Due } from './deadlines.js';
import { type EventStore, InMemoryEventStore } from './event-store.js';
import { channels, type FleetMessage, type SessionFleet } from './fleet-channels.js';
import { checkOrigin, localPolicy, type OriginPolicy } from './security.js';
import type { SessionRecord, SessionStore } from './session-store.js';
import { errorBody, HttpSessionTransport } from './session-transport.js';
import { StatelessExchangeTransport } from './stateless-exchange.js';

export interface HttpHandlerOptions {
  /** What the endpoint must know of the protocol it carries (McpServer and mcpwire's createHttpHandler give MCP's). */
  binding: HttpBinding;
  /** Largest request body accepted, in bytes (4 MiB). */
  maxBodySize?: number;
  /** How long a request body may stop arriving before it is refused with 408, in ms (10 000). */
  bodyTimeout?: number;
  /** Sessions kept at once (10 000): a new one past that is refused with 503 until one ends or expires. */
  maxSessions?: number;
  /**
   * A session with no request in flight, no open GET stream and nothing from its client for this long
   * ends, in ms (30 minutes; 0 keeps sessions until DELETE).
   */
  sessionIdleTimeout?: number;
  /** Host and Origin checks against DNS rebinding (localhost only, by default). */
  originPolicy?: OriginPolicy;
  /** Where SSE events are kept for resumption (in memory by default; null turns resumption off). */
  eventStore?: EventStore | null;
  /** Answer POSTs with a JSON body instead of an SSE stream. */
  jsonResponse?: boolean;
  /**
   * How long a POST's SSE stream may wait for its first message before it is opened, in ms (off: it opens
   * at once). An answer that comes first, and ends the POST, goes as one JSON body instead: one write
   * instead of the stream's headers, priming event, message and end (the proxy's per-call cost). Anything
   * else first (progress, a request to the client), or nothing within the delay, opens the stream.
   */
  streamAfter?: number;
  /** The SSE `retry` hint, in ms (1000). */
  retryInterval?: number;
  /**
   * Bytes that may wait on an SSE stream whose client does not read it before the stream is closed (the
   * client resumes it from the event store), instead of being kept in memory without bound (8 MiB).
   */
  maxStreamBacklog?: number;
  /**
   * Turns authorization on: every request needs a bearer token the resource server accepts, and a session
   * can be used only by the caller that opened it.
   */
  authorization?: ResourceServer;
  /**
   * Serve handshake-era requests without sessions: no Mcp-Session-Id, each POST served on its own by
   * whichever instance gets it (no GET stream, no server-to-client requests, no subscriptions).
   */
  sessionless?: boolean;
  /**
   * Serve the sessions together with other instances (a fleet behind a load balancer): their records in
   * a shared session store, messages between instances on a bus. `eventStore` must be shared too.
   */
  fleet?: FleetOptions;
}

export interface FleetOptions {
  sessions: SessionStore;
  bus: MessageBus;
  /** Sessions kept in all, on every instance (100 000): `maxSessions` bounds those of one instance. */
  maxSessions?: number;
  /** How often a stream resumed from another instance checks that the instance is alive, in ms (1000). */
  livenessInterval?: number;
  /**
   * How long this instance keeps its copy of a session that is idle here, in ms (60 000, at most the
   * session idle timeout). The session itself lives in the store until its own idle timeout.
   */
  localCopyIdle?: number;
}

export type HttpHandler = ((request: IncomingMessage, response: ServerResponse) => Promise<void>) & {
  /** Ends every session. */
  closeAll(): void;
  readonly sessions: ReadonlyMap<string, HttpSessionTransport>;
};

/**
 * Makes a handler that serves MCP at whatever path it is mounted. `connect` is called with the transport
 * of each new session (for an McpServer: `(t) => server.connect(t)`). The transport's side of the public
 * createHttpHandler (server/http.ts), which adds the server's binding and authorization.
 */
export function createHttpEndpoint(
  connect: (transport: Transport) => void,
  options: HttpHandlerOptions,
): HttpHandler {
  const { binding } = options;
  const sessions = new Map<string, HttpSessionTransport>();
  const { authorization } = options;
  /** The caller that opened each session, when authorization is on: nobody else may use it. */
  const owners = new WeakMap<HttpSessionTransport, string | undefined>();
  const policy = options.originPolicy ?? localPolicy();
  const maxBody = options.maxBodySize ?? 4 * 1024 * 1024;
  const maxBodyDigits = String(maxBody).length;
  const versions = binding.sessionVersions;
  const maxSessions = options.maxSessions ?? 10_000;
  const idleTimeout = options.sessionIdleTimeout ?? 30 * 60_000;
  const fleetOptions = options.fleet;
  const fleet: SessionFleet | undefined = fleetOptions && {
    bus: fleetOptions.bus,
    store: fleetOptions.sessions,
    ttlMs: idleTimeout,
    concerns: (message) => binding.concerns?.(message),
    livenessInterval: fleetOptions.livenessInterval ?? 1000,
  };
  if (fleet && !options.eventStore) {
    throw new McpwireError(
      'CONFIG',
      'a fleet needs an event store that every instance shares (eventStore), so that a client can resume on any of them',
    );
  }
  const fromBus = (raw: string) => {
    let message: FleetMessage;
    try {
      message = JSON.parse(raw) as FleetMessage;
    } catch {
      return;
    }
    const session = sessions.get(message.s);
    if (!session) return;
    if (message.t === 'end') session.finish({ message: 'the session was ended on another instance' });
    else session.fromFleet(message);
  };
  let unsubscribe: Array<() => Promise<void>> = [];
  const joined = fleet
    ? Promise.all([
        fleet.bus.subscribe(channels.instance(fleet.bus.instanceId), fromBus),
        fleet.bus.subscribe(channels.fleet, fromBus),
      ]).then((offs) => {
        unsubscribe = offs;
      })
    : undefined;
  // Nothing is served before the bus listens; a bus that cannot is reported on each request until it can.
  joined?.catch(() => undefined);
  /** A store or bus that failed: the request is refused with 503 and a reason, never left hanging. */
  const unavailable = (error: unknown) =>
    new McpwireError(
      'FLEET_UNAVAILABLE',
      `Service Unavailable: the fleet's shared store cannot be reached (${(error as Error).message}); try again shortly`,
    );
  const shared = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw unavailable(error);
    }
  };
  // One timer for every session's idle expiry, running only while there are sessions, and never keeping
  // the process alive.
  let sweeper: ReturnType<typeof setInterval> | undefined;
  // In a fleet the shared store holds every session and any instance makes a copy from it on demand, so
  // an instance keeps its copy of an idle session only a short while (its memory is the fleet's cost per
  // idle session; the store's own record is 0.65 KiB).
  const copyIdle = fleet ? Math.min(idleTimeout, fleetOptions?.localCopyIdle ?? 60_000) : idleTimeout;
  const sweep = () => {
    const now = monotonicNow();
    for (const session of sessions.values()) {
      const idleFor = now - session.lastActivity;
      if (!session.busy && idleFor >= idleTimeout) {
        session.finish({ message: `the session was idle for ${idleTimeout} ms` });
      } else if (fleet && !session.busy && idleFor >= copyIdle) {
        session.release({ message: `this instance's copy of the session was idle for ${copyIdle} ms` });
      } else if (fleet && session.busy) {
        // A session at work here must not expire in the store meanwhile.
        void fleet.store.get(session.sessionId, idleTimeout).catch(() => undefined);
      }
    }
    if (sessions.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  const sweepLater = () => {
    if (sweeper || idleTimeout <= 0) return;
    sweeper = setInterval(sweep, Math.max(10, Math.min(60_000, copyIdle / 4)));
    sweeper.unref();
  };

  const reply = (
    response: ServerResponse,
    status: number,
    message: string,
    code: number = ErrorCode.InvalidRequest,
    extra: Record<string, string> = {},
    id: JsonRpcId | null = null,
  ) => {
    if (response.headersSent) return;
    response
      .writeHead(status, { 'Content-Type': 'application/json', ...extra })
      .end(JSON.stringify(errorBody(message, code, id)));
  };

  const refuse = (response: ServerResponse, refusal: Refusal) =>
    reply(response, refusal.status, refusal.description, ErrorCode.InvalidRequest, refusal.headers);

  /**
   * A session's transport on this instance, made from its record when another instance served it so far.
   * Off a fleet it is at hand: no promise, and no turn for every POST.
   */
  const replicaOf = (
    id: string,
  ): HttpSessionTransport | undefined | Promise<HttpSessionTransport | undefined> =>
    fleet ? replicaInFleet(fleet, id) : sessions.get(id);

  const replicaInFleet = async (
    fleet: SessionFleet,
    id: string,
  ): Promise<HttpSessionTransport | undefined> => {
    const record = await shared(() => fleet.store.get(id, idleTimeout));
    const local = sessions.get(id);
    if (!record) {
      local?.finish({ message: 'the session expired or was ended on another instance' });
      return undefined;
    }
    if (local && !local.closed) {
      local.refresh(record.state);
      return local;
    }
    if (sessions.size >= maxSessions) throw tooMany();
    return openSession(id, record);
  };

  const tooMany = () =>
    new McpwireError(
      'TOO_MANY_SESSIONS',
      `Service Unavailable: this server keeps at most ${maxSessions} sessions; end one (DELETE) or try again later`,
    );

  /**
   * Without a store of the user's, one in memory for all the sessions (a store per session cost each idle
   * session its own): a session drops its streams from it as they stop being resumable, and a session can
   * resume only its own streams (their ids start with its id).
   */
  const defaultStore = options.eventStore === undefined && !fleet ? new InMemoryEventStore() : undefined;

  /** A session the server ended (McpServer.close(), a failed write) is forgotten too, not only on DELETE. */
  const forget = (ended: HttpSessionTransport) => {
    if (sessions.get(ended.sessionId) === ended) sessions.delete(ended.sessionId);
  };

  /**
   * A session's transport, connected. Sessionless, it serves one POST and is kept nowhere; its state is
   * `initialState` (none for initialize, which negotiates one as usual).
   */
  const openSession = (
    id: string,
    record: SessionRecord | undefined,
    sessionless = false,
    initialState?: Record<string, unknown>,
  ): HttpSessionTransport => {
    const session = new HttpSessionTransport({
      sessionId: id,
      eventStore: sessionless
        ? undefined
        : options.eventStore === null
          ? undefined
          : (options.eventStore ?? defaultStore),
      jsonResponse: options.jsonResponse ?? false,
      streamAfter: fleet ? undefined : options.streamAfter,
      retryInterval: options.retryInterval ?? 1000,
      maxStreamBacklog: options.maxStreamBacklog,
      fleet: sessionless ? undefined : fleet,
      initialState: sessionless ? initialState : record?.state,
      oneShot: sessionless,
      onFinished: forget,
    });
    if (!sessionless) {
      sessions.set(id, session);
      owners.set(session, record ? record.owner : undefined);
      sweepLater();
    }
    connect(session);
    return session;
  };

  /** The session a request names, or undefined once refused; a promise only in a fleet (see replicaOf). */
  const findSession = (
    request: IncomingMessage,
    response: ServerResponse,
    auth: AuthInfo | undefined,
  ): HttpSessionTransport | undefined | Promise<HttpSessionTransport | undefined> => {
    const id = request.headers['mcp-session-id'];
    if (options.sessionless) {
      reply(
        response,
        405,
        'Method Not Allowed: this server keeps no sessions (sessionless); POST each request on its own',
        ErrorCode.InvalidRequest,
        { Allow: 'POST' },
      );
      return undefined;
    }
    if (typeof id !== 'string' || id === '') {
      reply(response, 400, 'Bad Request: the Mcp-Session-Id header is required after initialize');
      return undefined;
    }
    const found = replicaOf(id);
    return found instanceof Promise
      ? found.then((session) => admit(request, response, auth, session))
      : admit(request, response, auth, found);
  };

  /** The checks of a session found: still open, the caller's own, and a protocol version it speaks. */
  const admit = (
    request: IncomingMessage,
    response: ServerResponse,
    auth: AuthInfo | undefined,
    session: HttpSessionTransport | undefined,
  ): HttpSessionTransport | undefined => {
    if (!session || session.closed) {
      reply(
        response,
        404,
        'Session not found: it expired or was ended; initialize a new session',
        ErrorCode.SessionNotFound,
      );
      return undefined;
    }
    if (authorization && owners.get(session) !== principalOf(auth)) {
      // A session id is no credential: one that leaked must not hand the session to another caller.
      reply(
        response,
        403,
        'Forbidden: this session was opened by another caller; initialize a session of your own',
      );
      return undefined;
    }
    const version = request.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !versions.includes(version)) {
      reply(
        response,
        400,
        `Bad Request: unsupported MCP-Protocol-Version "${version}"; supported: ${versions.join(', ')}`,
      );
      return undefined;
    }
    return session;
  };

  /**
   * A POST: its headers checked, then its body read and served. Callbacks, not async functions: a POST
   * is served in the turn its body ends (most are answered in it), and the promises of three async
   * layers were a measurable part of every call (issue 21).
   */
  const post = (request: IncomingMessage, response: ServerResponse, auth: AuthInfo | undefined): void => {
    const type = String(request.headers['content-type'] ?? '');
    if (!type.startsWith('application/json') && !type.toLowerCase().startsWith('application/json')) {
      reply(
        response,
        415,
        `Unsupported Media Type: POST a JSON-RPC message with Content-Type application/json, not "${type}"`,
      );
      return;
    }
    const accept = String(request.headers.accept ?? '*/*');
    const anything = accept.includes('*/*');
    const acceptsJson = anything || accept.includes('application/json');
    const acceptsSse = anything || accept.includes('text/event-stream');
    if (!acceptsJson && !acceptsSse) {
      reply(response, 406, 'Not Acceptable: accept application/json and text/event-stream');
      return;
    }
    // A client that accepts only one of the two gets that one, whatever the configured default: it was
    // answered with an SSE stream even when it accepted only application/json.
    const mode = options.jsonResponse
      ? acceptsJson
        ? 'json'
        : 'sse'
      : acceptsSse
        ? acceptsJson && options.streamAfter !== undefined
          ? 'either'
          : 'sse'
        : 'json';
    readBody(request, maxBody, maxBodyDigits, options.bodyTimeout ?? 10_000, (read) => {
      try {
        const serving = served(request, response, auth, read, mode, acceptsSse);
        if (serving) serving.catch((error: unknown) => failed(response, error));
      } catch (error) {
        failed(response, error);
      }
    });
  };

  /** A POST's body, read: parsed, checked and handed to its session or exchange. */
  const served = (
    request: IncomingMessage,
    response: ServerResponse,
    auth: AuthInfo | undefined,
    read: Body,
    mode: 'sse' | 'json' | 'either',
    acceptsSse: boolean,
  ): void | Promise<void> => {
    if ('broken' in read) {
      failed(response, read.broken);
      return;
    }
    if ('refused' in read) {
      // Nothing more of this request is read: its connection closes once the answer is out.
      const close = { Connection: 'close' };
      if (read.refused === 413) {
        reply(response, 413, `Payload Too Large: the body exceeds ${maxBody} bytes`, undefined, close);
      } else if (read.refused === 408) {
        reply(response, 408, 'Request Timeout: the body stopped arriving before its end', undefined, close);
      } else {
        reply(response, 400, 'Parse error: the body is not valid UTF-8', ErrorCode.ParseError, close);
      }
      response.on('finish', () => request.destroy());
      return;
    }
    const text = read.text;
    let body: unknown;
    try {
      body = httpExactIds.read(JSON.parse(text), text);
    } catch (error) {
      reply(response, 400, `Parse error: ${(error as Error).message}`, ErrorCode.ParseError);
      return;
    }
    const items = Array.isArray(body) ? body : [body];
    if (items.length === 0) {
      reply(response, 400, 'Invalid Request: empty batch');
      return;
    }
    // One pass: the first invalid item, whether all are, and the request that opens a session.
    let invalid: string | undefined;
    let valid = false;
    let opening: JsonRpcRequest | undefined;
    for (const item of items) {
      const c = classify(item);
      if (c.kind === 'invalid') invalid ??= c.reason;
      else valid = true;
      if (c.kind === 'request' && !opening && binding.opensSession(c.message)) opening = c.message;
    }
    // Input the server cannot accept gets an HTTP error (basic/transports): a body that holds no JSON-RPC
    // message at all was answered 202 Accepted and then dropped.
    if (!valid) {
      reply(response, 400, `Invalid Request: ${invalid}`);
      return;
    }
    if (auth && authorization) {
      const refusal = authorization.checkScopes(auth, body);
      if (refusal) {
        refuse(response, refusal);
        return;
      }
    }
    const info: MessageInfo | undefined = auth ? { auth } : undefined;
    if (standalone(request, response, body, acceptsSse, info)) return;
    if (options.sessionless) {
      if (opening && items.length > 1) {
        reply(response, 400, `Invalid Request: ${opening.method} must be sent on its own`);
        return;
      }
      // Each POST is a session of its own that ends with it: initialize is answered as usual (without a
      // session id), anything else is served as the revision its MCP-Protocol-Version header names.
      const named = headerValue(request, 'mcp-protocol-version');
      const state = opening ? undefined : binding.sessionlessState?.(named);
      const session = openSession(nodeCrypto().randomUUID(), undefined, true, state);
      if (opening) session.openedBy(opening.id);
      session.handlePost(body, response, {}, mode, info);
      return;
    }
    if (opening) {
      if (items.length > 1) {
        reply(response, 400, `Invalid Request: ${opening.method} must be sent on its own`);
        return;
      }
      if (sessions.size >= maxSessions) {
        reply(
          response,
          503,
          `Service Unavailable: this server keeps at most ${maxSessions} sessions; end one (DELETE) or try again later`,
          ErrorCode.InternalError,
          { 'Retry-After': '60' },
          opening.id,
        );
        return;
      }
      const id = nodeCrypto().randomUUID();
      const record: SessionRecord = { owner: principalOf(auth), state: {} };
      const open = () => {
        const session = openSession(id, { owner: record.owner, state: undefined as never });
        session.openedBy(opening.id);
        session.handlePost(body, response, { 'Mcp-Session-Id': id }, mode, info);
      };
      if (!fleet) return open();
      return shared(() =>
        fleet.store.create(id, record, idleTimeout, fleetOptions?.maxSessions ?? 100_000),
      ).then((created) => {
        if (created) return open();
        reply(
          response,
          503,
          `Service Unavailable: the fleet keeps at most ${fleetOptions?.maxSessions ?? 100_000} sessions in all; end one (DELETE) or try again later`,
          ErrorCode.InternalError,
          { 'Retry-After': '60' },
          opening.id,
        );
      });
    }
    const found = findSession(request, response, auth);
    const take = (session: HttpSessionTransport | undefined) =>
      session?.handlePost(body, response, { 'Mcp-Session-Id': session.sessionId }, mode, info);
    if (found instanceof Promise) return found.then(take);
    take(found);
  };

  /**
   * A POST the binding says stands alone (a request of the stateless revision): no session, answered on
   * its own POST, or refused. Returns false for everything else (the sessions).
   */
  const standalone = (
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    acceptsSse: boolean,
    info: MessageInfo | undefined,
  ): boolean => {
    const decision = binding.standalone(body, (name) => headerValue(request, name));
    if (!decision) return false;
    if (decision.kind === 'refuse') {
      reply(response, decision.status, decision.message, decision.code, {}, decision.id);
    } else if (decision.kind === 'accepted') {
      response.writeHead(202).end();
    } else {
      // An Mcp-Session-Id header is ignored here: the exchange belongs to no session.
      connect(
        new StatelessExchangeTransport(body, decision.id, response, acceptsSse, binding.answerStatus, info),
      );
    }
    return true;
  };

  /** A request the endpoint itself failed: 503 when the fleet cannot be reached or keeps too many sessions. */
  const failed = (response: ServerResponse, error: unknown): void => {
    if (
      error instanceof McpwireError &&
      (error.code === 'FLEET_UNAVAILABLE' || error.code === 'TOO_MANY_SESSIONS')
    ) {
      reply(response, 503, error.message, ErrorCode.InternalError, { 'Retry-After': '1' });
      return;
    }
    reply(response, 500, `Internal error: ${(error as Error).message}`, ErrorCode.InternalError);
  };

  const get = async (request: IncomingMessage, response: ServerResponse, auth: AuthInfo | undefined) => {
    if (!String(request.headers.accept ?? '').includes('text/event-stream')) {
      reply(response, 406, 'Not Acceptable: a GET must accept text/event-stream');
      return;
    }
    const found = findSession(request, response, auth);
    const session = found instanceof Promise ? await found : found;
    if (!session) return;
    const lastEventId = request.headers['last-event-id'];
    await session.handleGet(
      response,
      { 'Mcp-Session-Id': session.sessionId },
      typeof lastEventId === 'string' ? lastEventId : undefined,
    );
    if (fleet && !session.closed) {
      // A change another instance stored and announced while this copy was being made from an older
      // read (a subscription made at the same time) was announced before the copy could hear it;
      // this copy now delivers the session's updates, so it reads the record once more.
      const record = await fleet.store.get(session.sessionId, idleTimeout).catch(() => undefined);
      if (record) session.refresh(record.state);
    }
  };

  const remove = async (request: IncomingMessage, response: ServerResponse, auth: AuthInfo | undefined) => {
    const found = findSession(request, response, auth);
    const session = found instanceof Promise ? await found : found;
    if (!session) return;
    if (fleet) {
      await shared(() => fleet.store.delete(session.sessionId));
      void fleet.bus
        .publish(channels.fleet, JSON.stringify({ t: 'end', s: session.sessionId }))
        .catch(() => undefined);
    }
    session.finish({ message: 'the client ended the session' });
    sessions.delete(session.sessionId);
    response.writeHead(200).end();
  };

  /** A request that passed the checks of its origin and caller, served by its method. */
  const dispatch = (
    request: IncomingMessage,
    response: ServerResponse,
    auth: AuthInfo | undefined,
  ): void | Promise<void> => {
    switch (request.method) {
      case 'POST':
        return post(request, response, auth);
      case 'GET':
        return get(request, response, auth);
      case 'DELETE':
        return remove(request, response, auth);
      default:
        reply(
          response,
          405,
          `Method Not Allowed: use POST, GET or DELETE, not ${request.method}`,
          ErrorCode.InvalidRequest,
          { Allow: 'GET, POST, DELETE' },
        );
    }
  };

  /** Whether the request may come from where it does; refused (403) if not. */
  const fromAllowedOrigin = (request: IncomingMessage, response: ServerResponse): boolean => {
    const refusal = checkOrigin(request, policy);
    if (!refusal) return true;
    reply(response, 403, `Forbidden: ${refusal}`);
    request.resume();
    return false;
  };

  /** A request that must wait before its checks: for the fleet's bus to listen, or for its caller to be authenticated. */
  const waitThenServe = async (request: IncomingMessage, response: ServerResponse) => {
    if (joined) await shared(() => joined);
    if (!fromAllowedOrigin(request, response)) return;
    let auth: AuthInfo | undefined;
    if (authorization) {
      const verdict = await authorization.authenticate(headerValue(request, 'authorization'), {
        method: request.method ?? 'GET',
        urls: requestUrls(request, authorization.options.resource),
        dpop: request.headers.dpop,
      });
      if ('refusal' in verdict) {
        refuse(response, verdict.refusal);
        request.resume();
        return;
      }
      auth = verdict.auth;
    }
    await dispatch(request, response, auth);
  };

  // The returned promise settles once the request is taken in hand (a POST's body may still be arriving,
  // and an answer still on its way): nothing is left to the caller to handle.
  const handler = ((request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (joined || authorization) {
      return waitThenServe(request, response).catch((error: unknown) => failed(response, error));
    }
    try {
      if (!fromAllowedOrigin(request, response)) return TAKEN;
      const serving = dispatch(request, response, undefined);
      if (serving) return serving.catch((error: unknown) => failed(response, error));
    } catch (error) {
      failed(response, error);
    }
    return TAKEN;
  }) as HttpHandler;
  Object.defineProperty(handler, 'sessions', { value: sessions });
  handler.closeAll = () => {
    if (sweeper) clearInterval(sweeper);
    sweeper = undefined;
    for (const session of sessions.values()) session.finish({ message: 'the server is shutting down' });
    sessions.clear();
    for (const off of unsubscribe) void off().catch(() => undefined);
    unsubscribe = [];
  };
  return handler;
}

/**
 * The URLs a request may have been sent to, for a DPoP proof's `htu`: the resource's origin with the
 * request's path (its public URL, behind a proxy too), and the URL as it arrived here.
 */
function requestUrls(request: IncomingMessage, resource: string): string[] {
  // The path alone: a request target in absolute form (`POST http://elsewhere/mcp`) names no other URL.
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const scheme = (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const urls = [new URL(path, resource).href];
  if (request.headers.host) urls.push(`${scheme}://${request.headers.host}${path}`);
  return urls;
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A POST's body as text, or why it was refused, or the error that broke it off (the client went away). */
type Body = { text: string } | { refused: 413 | 408 | 'not-utf8' } | { broken: Error };

/** What the handler returns for a request it served without waiting: settled, shared by all. */
const TAKEN: Promise<void> = Promise.resolve();

/** The stall deadlines of every body being read. */
const stalls = new Deadlines();

/**
 * Reads the body, then calls `then` with it as text, or with why it is refused: larger than `limit`, a
 * number of `limitDigits` digits (413, told from the declared Content-Length at once, or when the bytes
 * read pass the limit: reading stops there), a body that stops arriving for `stallMs` (408), or bytes
 * that are not UTF-8. A refused request's connection is closed once the answer is written, so that
 * nothing more of it is read.
 */
function readBody(
  request: IncomingMessage,
  limit: number,
  limitDigits: number,
  stallMs: number,
  then: (body: Body) => void,
): void {
  // Node's parser let only digits through, so a length with fewer digits than the limit is below it, and
  // is not converted (turning a fresh string into a number hashes it: a visible part of a small POST).
  const declared = request.headers['content-length'];
  if (declared !== undefined && declared.length >= limitDigits && Number(declared) > limit) {
    then({ refused: 413 });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const done = (body: Body) => {
    if (settled) return;
    settled = true;
    stalls.delete(stall);
    request.off('data', onData);
    if ('refused' in body) request.pause();
    then(body);
  };
  // A deadline among all bodies', pushed back as bytes arrive: a timer made and cleared per POST (and
  // once per chunk before) was most of what reading a small body cost.
  const stall: Due = { at: monotonicNow() + stallMs, fire: () => done({ refused: 408 }) };
  stalls.add(stall);
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) return done({ refused: 413 });
    chunks.push(chunk);
    stall.at = monotonicNow() + stallMs;
  };
  request.on('data', onData);
  request.on('end', () => {
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const text = bytes.toString('utf8');
    // Bytes that are not UTF-8 decode to U+FFFD, so only a text with one in it needs the bytes checked
    // (a search of an ASCII text for it is over at once; a whole check was a part of every POST).
    done(!text.includes('\uFFFD') || isUtf8(bytes) ? { text } : { refused: 'not-utf8' });
  });
  request.on('error', (error) => done({ broken: error }));
}
