// The front of a proxy: a server definition whose every request is forwarded to a back server through an
// McpClient, whichever era each side speaks. The front session (protocol/server-session.ts) speaks the
// client's era; the back client speaks the server's. A handshake-era session gets a back of its own,
// opened at initialize with the client's revision and capabilities; 2026-07-28 requests, which belong to no
// session, share one back. Results, errors, progress, cancellation, cursors and `_meta` go through as they
// are; what only one era has is converted (see results.ts) or refused with a clear error.

import type { McpClient } from '../client/client.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import type { RequestContext } from '../protocol/context.js';
import { Method } from '../protocol/methods.js';
import type {
  OpeningRequest,
  ServerDefinition,
  ServerRequestHandler,
  Session,
  SessionDescription,
} from '../protocol/server-definition.js';
import type { ServerSession } from '../protocol/server-session.js';
import type { Implementation, LoggingLevel, ServerCapabilities } from '../protocol/types.js';
import { BackLink } from './back-link.js';
import { forwardClientNotification } from './client-notifications.js';
import { forwardCall } from './forward-call.js';
import { ToolMarks } from './tool-marks.js';

/** A back server as the proxy holds it: its client, and the link that routes what it sends. */
export interface Back {
  readonly client: McpClient;
  readonly link: BackLink;
}

export interface BackProvider {
  /**
   * A back for one handshake-era session, opened with what its client said in initialize; `signal`
   * aborts when the session ends first (the back, still starting, is ended then).
   */
  openSession(request: OpeningRequest, link: BackLink, signal?: AbortSignal): Promise<McpClient>;
  /** The back that serves 2026-07-28 requests (started, or started again, on demand). */
  shared(): Promise<Back>;
  /** A back for one 2026-07-28 request (the shared one, or another of a pool: see Backs.poolSize). */
  pick?(): Promise<Back>;
  /** A front session that used the shared back ended. */
  release(session: Session): void;
  /** Ends every back server. */
  close(): Promise<void>;
}

export interface ForwarderOptions {
  /** Longest a forwarded request may take, in ms (1 hour): the front client's own timeout governs. */
  timeout?: number;
  /** Told when a session's back server ends by itself (a crash): the proxy ends that session. */
  onBackClosed?: (session: Session, reason: string) => void;
}

const DEFAULT_INFO: Implementation = { name: 'mcpwire-proxy', version: '0.0.0' };

export class Forwarder implements ServerDefinition {
  /** 2026-07-28 input rounds and tasks of the back go to the caller as they are (forward-call.ts). */
  readonly forwardsInput = true;
  /** The back's tools' x-mcp-header marks, for the HTTP front to check Mcp-Param-* headers by. */
  readonly toolMarks = new ToolMarks();
  private described: SessionDescription | undefined;
  private readonly sessionBacks = new WeakMap<Session, Back>();
  /** Sessions that ended: one whose server was still starting then must not keep that server. */
  private readonly ended = new WeakSet<Session>();
  /** Aborted when its session ends while its server is starting: that server is ended at once. */
  private readonly starting = new WeakMap<Session, AbortController>();
  /** How many 2026-07-28 listen streams follow each URI on the shared back. */
  private readonly sharedSubscriptions = new Map<string, number>();
  /** Front sessions without a back of their own: the shared back's notifications go to them. */
  private readonly fronts = new Set<ServerSession>();

  constructor(
    private readonly backs: BackProvider,
    private readonly options: ForwarderOptions = {},
  ) {}

  get info(): Implementation {
    return this.described?.info ?? DEFAULT_INFO;
  }

  get instructions(): string | undefined {
    return this.described?.instructions;
  }

  capabilities(): ServerCapabilities {
    return this.described?.capabilities ?? {};
  }

  /** A new front session: it hears the shared back until (unless) it opens a back of its own. */
  attach(session: ServerSession): void {
    this.fronts.add(session);
  }

  async describe(): Promise<SessionDescription> {
    const { client } = await this.shared();
    this.described = describe(client);
    // Known before the first call, so that its Mcp-Param-* headers are checked even without a list first.
    if (client.serverCapabilities?.tools && !this.toolsListed) {
      this.toolsListed = true;
      this.toolMarks.learn(await client.listAllTools().catch(() => []));
    }
    return this.described;
  }

  private toolsListed = false;

  async openSession(session: Session, request: OpeningRequest): Promise<SessionDescription> {
    this.fronts.delete(session as ServerSession);
    const link = new BackLink();
    link.sessions.add(session as ServerSession);
    let client: McpClient;
    const start = new AbortController();
    this.starting.set(session, start);
    try {
      client = await this.backs.openSession(request, link, start.signal);
    } catch (error) {
      if (this.ended.has(session)) {
        throw new JsonRpcError(ErrorCode.InternalError, 'the session ended while its server was starting');
      }
      throw new JsonRpcError(
        ErrorCode.InternalError,
        `the server behind the proxy could not be started: ${(error as Error).message}`,
      );
    } finally {
      this.starting.delete(session);
    }
    if (this.ended.has(session)) {
      // The session ended (DELETE, expiry) while its server started: nothing would ever end that server,
      // and a client repeating this would pile up processes past the session limit.
      void client.close().catch(() => {});
      throw new JsonRpcError(ErrorCode.InternalError, 'the session ended while its server was starting');
    }
    this.sessionBacks.set(session, { client, link });
    client.onClose((reason) => {
      if (this.sessionBacks.get(session)?.client === client) {
        this.options.onBackClosed?.(session, reason.message);
      }
    });
    this.described = describe(client);
    return this.described;
  }

  sessionClosed(session: Session): void {
    this.ended.add(session);
    this.starting.get(session)?.abort();
    this.fronts.delete(session as ServerSession);
    this.backs.release(session);
    const back = this.sessionBacks.get(session);
    if (back) {
      this.sessionBacks.delete(session);
      void back.client.close().catch(() => {});
    }
  }

  loggingLevelChanged(session: Session, level: LoggingLevel): void {
    this.sessionBacks
      .get(session)
      ?.client.setLoggingLevel(level)
      .catch(() => {});
  }

  clientNotification(method: string, params: unknown, session: Session): void {
    const back = this.sessionBacks.get(session);
    if (back) forwardClientNotification(back.client, method, params);
  }

  /** A 2026-07-28 listen stream began or stopped following a URI: the shared back follows it too. */
  subscriptionChanged(session: Session, uri: string, subscribed: boolean): void {
    if (this.sessionBacks.has(session)) return;
    const count = (this.sharedSubscriptions.get(uri) ?? 0) + (subscribed ? 1 : -1);
    if (count > 0) this.sharedSubscriptions.set(uri, count);
    else this.sharedSubscriptions.delete(uri);
    if (subscribed ? count !== 1 : count !== 0) return;
    void this.shared()
      .then(({ client }) => (subscribed ? client.subscribeResource(uri) : client.unsubscribeResource(uri)))
      .catch(() => {});
  }

  handler(method: string): ServerRequestHandler | undefined {
    if (method === Method.ResourcesSubscribe || method === Method.ResourcesUnsubscribe) {
      return (params, context, session) => this.subscribe(method, params, context, session);
    }
    return (params, context, session) => this.forward(method, params, context, session);
  }

  private async backOf(session: Session): Promise<Back> {
    const own = this.sessionBacks.get(session);
    if (own) return own;
    const back = await (this.backs.pick?.() ?? this.backs.shared());
    back.link.audience ??= () => this.fronts;
    back.link.sessions.add(session as ServerSession);
    return back;
  }

  private async shared(): Promise<Back> {
    const back = await this.backs.shared();
    back.link.audience ??= () => this.fronts;
    return back;
  }

  private async subscribe(
    method: string,
    params: Record<string, unknown>,
    context: RequestContext,
    session: Session,
  ): Promise<Record<string, unknown>> {
    if (typeof params.uri !== 'string') return this.forward(method, params, context, session);
    // Through the back client's own era, not forwarded as is: a 2026-07-28 server has no
    // resources/subscribe (the client follows the URI on its subscriptions/listen stream instead). The
    // shared back is told by subscriptionChanged, once per URI; a session's own back here.
    const subscribing = method === Method.ResourcesSubscribe;
    const own = this.sessionBacks.get(session);
    if (own) {
      const options = { timeout: this.options.timeout ?? 3_600_000, signal: context.signal };
      if (subscribing) await own.client.subscribeResource(params.uri, options);
      else await own.client.unsubscribeResource(params.uri, options);
    }
    session.setSubscription(params.uri, subscribing);
    return {};
  }

  private async forward(
    method: string,
    params: Record<string, unknown>,
    context: RequestContext,
    session: Session,
  ): Promise<Record<string, unknown>> {
    // A session's own back is at hand: no promise and turn of backOf's for it on every call.
    const { client, link } = this.sessionBacks.get(session) ?? (await this.backOf(session));
    const result = await forwardCall(client, link, method, params, context, {
      timeout: this.options.timeout ?? 3_600_000,
      label: 'the server behind the proxy',
      handshakeFront: session.protocolVersion !== undefined,
      owner: session,
    });
    if (method === Method.ToolsList) this.toolMarks.learn(result.tools);
    return result;
  }
}

function describe(client: McpClient): SessionDescription {
  return {
    info: client.serverInfo ?? DEFAULT_INFO,
    capabilities: client.serverCapabilities ?? {},
    instructions: client.instructions,
  };
}
