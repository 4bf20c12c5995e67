// What a session's client asked to hear about, in both eras: resources/subscribe URIs (handshake era)
// and subscriptions/listen streams (stateless era), each stream a filter of list changes and URIs. The
// server is told when a URI gains its first subscriber on the session or loses its last one, whichever
// era holds it.

import type { Connection, RequestContext as ConnectionRequestContext } from '../jsonrpc/connection.js';
import type { JsonRpcId } from '../jsonrpc/messages.js';
import { withKeys } from '../jsonrpc/with-keys.js';
import { invalidParams } from './errors.js';
import { Notification } from './methods.js';
import type { ListKind, ServerDefinition, Session } from './server-definition.js';
import { MetaKey } from './stateless.js';

interface Listener {
  tools: boolean;
  resources: boolean;
  prompts: boolean;
  uris: Set<string>;
}

export const LIST_CHANGED: Record<ListKind, string> = {
  tools: Notification.ToolsListChanged,
  resources: Notification.ResourcesListChanged,
  prompts: Notification.PromptsListChanged,
};

const NO_URIS = new Set<string>();
const NO_LISTENERS = new Map<JsonRpcId, Listener>();

export class Subscriptions {
  // Both start as one shared empty collection, never written, and get their own on the first subscription:
  // most sessions never subscribe, and an idle HTTP session's heap counts (issue 21).
  /** URIs the client subscribed to with resources/subscribe (handshake era). */
  private handshakeUris: Set<string> = NO_URIS;
  /** Open subscriptions/listen streams (stateless era), by the id of the request that opened them. */
  private listeners: Map<JsonRpcId, Listener> = NO_LISTENERS;
  /**
   * Whether the resources/subscribe URIs count here. In a fleet every instance keeps a copy of the
   * session, but only the one holding its GET stream delivers updates: only there do the URIs count, so
   * that the server hears of a subscription once in the fleet, not once per copy (see setHandshakeActive).
   */
  private handshakeActive = true;

  constructor(
    private readonly connection: Connection,
    private readonly server: ServerDefinition,
    private readonly session: Session,
  ) {}

  isSubscribed(uri: string): boolean {
    if (this.handshakeActive && this.handshakeUris.has(uri)) return true;
    for (const listener of this.listeners.values()) if (listener.uris.has(uri)) return true;
    return false;
  }

  /** Whether resources/subscribe (handshake era) covers the URI. */
  handshakeSubscribed(uri: string): boolean {
    return this.handshakeUris.has(uri);
  }

  /** resources/subscribe and resources/unsubscribe. */
  setHandshakeSubscription(uri: string, subscribed: boolean): void {
    const before = this.isSubscribed(uri);
    if (subscribed) {
      if (this.handshakeUris === NO_URIS) this.handshakeUris = new Set();
      this.handshakeUris.add(uri);
    } else this.handshakeUris.delete(uri);
    if (before !== this.isSubscribed(uri)) this.server.subscriptionChanged?.(this.session, uri, !before);
  }

  /**
   * Whether this copy of the session delivers its resources/subscribe updates (it holds the GET stream):
   * the server hears of its URIs when it starts to and when it stops.
   */
  setHandshakeActive(active: boolean): void {
    if (active === this.handshakeActive) return;
    const before = [...this.handshakeUris].filter((uri) => this.isSubscribed(uri));
    this.handshakeActive = active;
    for (const uri of this.handshakeUris) {
      const now = this.isSubscribed(uri);
      if (now !== before.includes(uri)) this.server.subscriptionChanged?.(this.session, uri, now);
    }
  }

  /** The URIs of resources/subscribe, for the session's stored state. */
  handshakeList(): string[] {
    return [...this.handshakeUris];
  }

  /** Takes up the resources/subscribe URIs of a session served elsewhere before. */
  restoreHandshake(uris: readonly string[]): void {
    const wanted = new Set(uris);
    for (const uri of [...this.handshakeUris])
      if (!wanted.has(uri)) this.setHandshakeSubscription(uri, false);
    for (const uri of wanted) if (!this.handshakeUris.has(uri)) this.setHandshakeSubscription(uri, true);
  }

  /** A list changed: tell every listen stream that asked for it. */
  listChanged(kind: ListKind): void {
    for (const [id, listener] of this.listeners) {
      if (listener[kind]) this.notifyListener(id, LIST_CHANGED[kind], {});
    }
  }

  /** A resource changed: tell every listen stream that covers it. */
  resourceUpdated(uri: string): void {
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
    if (this.listeners === NO_LISTENERS) this.listeners = new Map();
    this.listeners.set(ctx.id, listener);
    // The acknowledgement is the first message carrying this subscription's id.
    this.notifyListener(ctx.id, Notification.SubscriptionsAcknowledged, { notifications: acknowledged });
    for (const uri of newly) this.server.subscriptionChanged?.(this.session, uri, true);
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

  /** The session closed: every subscription of it ends. */
  clear(): void {
    // Most sessions (every 2026-07-28 request has one) subscribed to nothing: nothing is copied or walked.
    if (this.listeners.size > 0) for (const id of [...this.listeners.keys()]) this.dropListener(id);
    if (this.handshakeUris.size === 0) return;
    if (this.handshakeActive) {
      for (const uri of this.handshakeUris) this.server.subscriptionChanged?.(this.session, uri, false);
    }
    this.handshakeUris.clear();
  }

  private notifyListener(id: JsonRpcId, method: string, params: Record<string, unknown>): void {
    this.connection.notify(method, withKeys(params, { _meta: { [MetaKey.SubscriptionId]: id } }), {
      relatedRequestId: id,
    });
  }

  private dropListener(id: JsonRpcId): void {
    const listener = this.listeners.get(id);
    if (!listener) return;
    this.listeners.delete(id);
    for (const uri of listener.uris) {
      if (!this.isSubscribed(uri)) this.server.subscriptionChanged?.(this.session, uri, false);
    }
  }
}
