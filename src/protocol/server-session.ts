// The server side of one connection: a router between the two eras, which it serves at once, deciding
// per message. A request that carries its protocol version in `_meta` is the stateless era's
// (eras/stateless.ts); everything else is the handshake era's (eras/handshake.ts). The session owns the
// connection, the subscriptions of both eras (subscriptions.ts) and the per-session state.

import {
  Connection,
  type ConnectionProblem,
  type RequestContext as ConnectionRequestContext,
} from '../jsonrpc/connection.js';
import type { JsonRpcId } from '../jsonrpc/messages.js';
import type { PersistedSession, SessionPersistence, Transport } from '../jsonrpc/transport.js';
import type { EraHost } from './eras/era.js';
import { HandshakeEra } from './eras/handshake.js';
import { StatelessEra } from './eras/stateless.js';
import { invalidParams } from './errors.js';
import { Method, Notification } from './methods.js';
import { processRequestStateSeal, type RequestStateSeal } from './request-state.js';
import type { ListKind, ServerDefinition, Session } from './server-definition.js';
import { type CacheHints, isStatelessRequest } from './stateless.js';
import { Subscriptions } from './subscriptions.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from './types.js';

export interface ServerSessionOptions {
  /** Timeout for requests the server sends to the client, in milliseconds. */
  timeout?: number;
  onProblem?: (problem: ConnectionProblem) => void;
  /** Cache hints on list and read results of the stateless revision (0 ms, private). */
  cache?: CacheHints;
  /** Signs requestState; one per server, shared by its sessions (a random key per process otherwise). */
  requestState?: RequestStateSeal;
}

/** The default cache hints, one object for every session (never written). */
const NO_CACHE: CacheHints = Object.freeze({ ttlMs: 0, cacheScope: 'private' });

export class ServerSession implements Session, EraHost, PersistedSession {
  /** Its place in its server's set of sessions (SlottedSet): a stateless request makes a session each. */
  slot = -1;
  readonly connection: Connection;
  readonly cacheHints: CacheHints;
  private seal: RequestStateSeal | undefined;
  /** Taken when first used (a 2026-07-28 request): the process's own seal makes a key, with node:crypto. */
  get requestState(): RequestStateSeal {
    this.seal ??= processRequestStateSeal();
    return this.seal;
  }
  readonly subscriptions: Subscriptions;
  private stateMap: Map<unknown, unknown> | undefined;
  /** Per-session storage handed to handlers as `context.sessionState`; made on first use (few use it). */
  get state(): Map<unknown, unknown> {
    this.stateMap ??= new Map();
    return this.stateMap;
  }
  private readonly handshake: HandshakeEra;
  private statelessEra: StatelessEra | undefined;
  /** Made for the first 2026-07-28 request: a handshake session (most HTTP sessions) never needs it. */
  private get stateless(): StatelessEra {
    this.statelessEra ??= new StatelessEra(this);
    return this.statelessEra;
  }
  private readonly persistence: SessionPersistence | undefined;

  constructor(
    transport: Transport,
    readonly server: ServerDefinition,
    options: ServerSessionOptions = {},
  ) {
    this.cacheHints = options.cache ?? NO_CACHE;
    this.seal = options.requestState;
    this.connection = new Connection(transport, {
      timeout: options.timeout,
      onProblem: options.onProblem,
      batchPolicy: () => this.handshake.batchRefusal(),
    });
    this.subscriptions = new Subscriptions(this.connection, server, this);
    this.handshake = new HandshakeEra(this);
    this.persistence = transport.persistence;
    // A copy of a fleet's session counts its subscriptions only while it is the one that delivers them.
    this.subscriptions.setHandshakeActive(this.home);
    if (this.persistence?.initial) this.restore(this.persistence.initial);
    this.persistence?.attach(this);
    // Everything goes through the two fallbacks, none by name: the connection then keeps no handler maps,
    // which an idle HTTP session would pay for (issue 21).
    this.connection.onOtherRequest((params, ctx) =>
      // Ping is answered before anything else in the handshake era; the stateless revision has no ping.
      ctx.method === Method.Ping
        ? isStatelessRequest(params)
          ? this.stateless.serve(Method.Ping, params as Record<string, unknown>, ctx)
          : {}
        : this.route(ctx.method, params, ctx),
    );
    this.connection.onOtherNotification((method, params) => {
      if (method !== Notification.Initialized) return this.server.clientNotification?.(method, params, this);
      if (this.handshake.ready) return;
      this.handshake.ready = true;
      this.persist();
    });
    this.connection.onClose(() => {
      this.subscriptions.clear();
      this.server.sessionClosed?.(this);
    });
  }

  /** Stores what another instance of a fleet needs to serve this session (nothing on a lone server). */
  persist(): void {
    this.persistence?.save({ ...this.handshake.snapshot(), uris: this.subscriptions.handshakeList() });
  }

  /** SessionPersistence: this instance took the session's GET stream, or another did. */
  homeChanged(): void {
    this.subscriptions.setHandshakeActive(this.home);
  }

  /** SessionPersistence: the state as the store holds it (another instance may have changed it). */
  restore(state: Record<string, unknown>): void {
    this.handshake.restore(state);
    const uris = Array.isArray(state.uris)
      ? state.uris.filter((u): u is string => typeof u === 'string')
      : [];
    this.subscriptions.restoreHandshake(uris);
  }

  /**
   * Whether events every instance hears (a list or a resource changed) reach the client from here: on a
   * lone server always; in a fleet, only on the instance holding the session's GET stream.
   */
  private get home(): boolean {
    return this.persistence?.home() ?? true;
  }

  /** The session itself, as the eras hand it to handlers. */
  get session(): Session {
    return this;
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
    return this.handshake.version;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.handshake.clientCapabilities;
  }

  get clientInfo(): Implementation | undefined {
    return this.handshake.clientInfo;
  }

  /** Whether the client has sent notifications/initialized. */
  get initialized(): boolean {
    return this.handshake.ready;
  }

  /** Sends a notification of the handshake era, encoded for its revision; nothing before the handshake. */
  notify(method: string, params: Record<string, unknown> = {}, relatedRequestId?: JsonRpcId): void {
    this.handshake.notify(method, params, relatedRequestId);
  }

  /** Sends a log message if it passes the level the client set (handshake era). */
  log(level: LoggingLevel, data: unknown, logger?: string, relatedRequestId?: JsonRpcId): void {
    this.handshake.log(level, data, logger, relatedRequestId);
  }

  isSubscribed(uri: string): boolean {
    return this.subscriptions.isSubscribed(uri);
  }

  setSubscription(uri: string, subscribed: boolean): void {
    this.subscriptions.setHandshakeSubscription(uri, subscribed);
    this.persist();
  }

  /** A list changed: tell the client, in whichever era it listens. */
  listChanged(kind: ListKind): void {
    if (this.home) this.handshake.listChanged(kind);
    this.subscriptions.listChanged(kind);
  }

  /** A resource changed: tell every subscription of this session that covers it. */
  resourceUpdated(uri: string): void {
    if (this.home && this.subscriptions.handshakeSubscribed(uri)) {
      this.notify(Notification.ResourcesUpdated, { uri });
    }
    this.subscriptions.resourceUpdated(uri);
  }

  private route(
    method: string,
    params: unknown,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown> {
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
      throw invalidParams(`Invalid params: "${method}" takes an object`);
    }
    const own = params as Record<string, unknown> | undefined;
    return isStatelessRequest(own)
      ? this.stateless.serve(method, own, ctx)
      : this.handshake.serve(method, own, ctx);
  }
}
