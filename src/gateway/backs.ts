// The back servers of a proxy: a connection of its own for each handshake-era session of the front (for a
// stdio server, a child process of its own, so that a server with per-connection state stays right), and
// one shared connection for the front's 2026-07-28 requests, which carry no state. Each session's back ends
// with its session; the shared one ends after it was idle for a while and starts again when needed. Child
// processes are ChildProcessTransport's: tracked, ended with their tree, watched by the watchdog.

import { McpClient } from '../client/client.js';
import type { ConnectionProblem } from '../jsonrpc/connection.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import type { Transport } from '../jsonrpc/transport.js';
import type { OpeningRequest, Session } from '../protocol/server-definition.js';
import type { ServerSession } from '../protocol/server-session.js';
import type { ClientCapabilities } from '../protocol/types.js';
import { atLeast } from '../protocol/versions.js';
import { BackLink } from './back-link.js';
import type { Back, BackProvider } from './forwarder.js';

export interface BacksOptions {
  /** A new transport to the back server (a child process, or an HTTP client). */
  open(): Transport;
  /** How the proxy names itself to the shared back. */
  clientInfo: { name: string; version: string };
  /** How long the shared back may be idle before it ends, in ms (5 minutes; 0 never). */
  idleTimeout?: number;
  /**
   * How many shared backs 2026-07-28 requests may spread over (4). A server of the handshake era names
   * no request when it asks for sampling, elicitation or roots: with one call in flight on a back, what
   * it asks is known to be that call's. So a request goes to an idle back, one is started while there
   * are fewer than this, and only then do calls share one (and what is asked there is refused when it
   * cannot be told whose it is). A 2026-07-28 server says whose in its answers: it gets one back.
   */
  poolSize?: number;
  /** How long a back server may take to start and answer initialize, in ms (30 000). */
  startTimeout?: number;
  /** Told when a back server started or ended, for the command line's messages. */
  onEvent?: (event: { type: 'started' | 'ended'; shared: boolean; detail: string }) => void;
  /** Told of what a back server sent that is not a message (a stray line on stdout, say), as it comes. */
  onProblem?: (problem: ConnectionProblem) => void;
}

export class Backs implements BackProvider {
  private sharedBack: Promise<Back> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** The shared backs besides the first, started when every shared back was busy. */
  private readonly extras = new Set<Back>();
  private starting = 0;
  private readonly open = new Set<McpClient>();
  private closing = false;

  constructor(private readonly options: BacksOptions) {}

  /**
   * A back for one handshake session: the handshake first, with the client's revision and capabilities,
   * so that the server sees its client as it is; a server that refuses the handshake is asked in
   * 2026-07-28 instead.
   */
  async openSession(request: OpeningRequest, link: BackLink, signal?: AbortSignal): Promise<McpClient> {
    const info = request.clientInfo ?? this.options.clientInfo;
    const make = (era: 'handshake' | 'stateless') =>
      new McpClient({
        name: info.name,
        version: info.version,
        ...link.clientOptions(carried(request)),
        protocolVersion: request.protocolVersion,
        era,
        onProblem: this.options.onProblem,
      });
    let client = make('handshake');
    // A session that ends while its server starts (a DELETE as soon as the stream named it): the server is
    // ended now, not once started, so that a flood of such sessions is not a flood of processes.
    const abandon = () => void client.close().catch(() => {});
    signal?.addEventListener('abort', abandon, { once: true });
    try {
      try {
        await this.connect(client, false);
      } catch (error) {
        if (!(error instanceof JsonRpcError) || signal?.aborted) throw error;
        client = make('stateless');
        await this.connect(client, false);
      }
    } finally {
      signal?.removeEventListener('abort', abandon);
    }
    return client;
  }

  shared(): Promise<Back> {
    if (this.closing) return Promise.reject(new Error('the proxy is shutting down'));
    this.sharedBack ??= this.startShared();
    const back = this.sharedBack;
    this.armIdle();
    return back;
  }

  /**
   * A shared back for one 2026-07-28 request: an idle one, or a new one while the pool has room, or the
   * least busy (see poolSize).
   */
  async pick(): Promise<Back> {
    const chosen = await this.choose();
    // Busy from now, before its call is tracked: a request picked in the same turn goes elsewhere.
    chosen.link.reserve();
    return chosen;
  }

  private async choose(): Promise<Back> {
    const first = await this.shared();
    if (first.client.era === 'stateless' || !first.link.busy) return first;
    let best = first;
    for (const back of this.extras) {
      if (!back.link.busy) {
        this.armExtraIdle(back);
        return back;
      }
      if (back.link.load < best.link.load) best = back;
    }
    if (1 + this.extras.size + this.starting >= (this.options.poolSize ?? 4)) return best;
    this.starting++;
    try {
      const back = await this.startBack();
      back.client.onClose(() => this.extras.delete(back));
      this.extras.add(back);
      this.armExtraIdle(back);
      return back;
    } catch {
      return best;
    } finally {
      this.starting--;
    }
  }

  /** Every shared back running now (the first and the pool's others). */
  async sharedBacks(): Promise<Back[]> {
    const first = await this.sharedBack?.catch(() => undefined);
    return [...(first ? [first] : []), ...this.extras];
  }

  /** A front session that used the shared back ended. */
  release(session: Session): void {
    void this.sharedBack?.then(({ link }) => link.sessions.delete(session as ServerSession)).catch(() => {});
    for (const { link } of this.extras) link.sessions.delete(session as ServerSession);
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.idleTimer);
    for (const back of this.extras) clearTimeout(this.extraTimers.get(back));
    await Promise.all([...this.open].map((client) => client.close().catch(() => {})));
  }

  private async startShared(): Promise<Back> {
    let back: Back;
    try {
      back = await this.startBack();
    } catch (error) {
      this.sharedBack = undefined;
      throw error;
    }
    const { client } = back;
    client.onClose(() => {
      if (this.sharedBack && this.current === client) this.sharedBack = undefined;
    });
    this.current = client;
    return back;
  }

  private async startBack(): Promise<Back> {
    const link = new BackLink();
    const client = new McpClient({
      ...this.options.clientInfo,
      ...link.clientOptions(undefined),
      onProblem: this.options.onProblem,
    });
    await this.connect(client, true);
    // Log messages of every level come up; each front request filters by its own.
    if (client.era === 'stateless') await client.setLoggingLevel('debug').catch(() => {});
    return { client, link };
  }

  private readonly extraTimers = new Map<Back, ReturnType<typeof setTimeout>>();

  /** A back of the pool besides the first ends once unused for the idle timeout. */
  private armExtraIdle(back: Back): void {
    const idle = this.options.idleTimeout ?? 300_000;
    if (idle <= 0) return;
    clearTimeout(this.extraTimers.get(back));
    const timer = setTimeout(() => {
      if (back.link.busy || back.link.sessions.size > 0) {
        this.armExtraIdle(back);
        return;
      }
      this.extraTimers.delete(back);
      this.extras.delete(back);
      void back.client.close().catch(() => {});
    }, idle);
    timer.unref();
    this.extraTimers.set(back, timer);
  }

  private current: McpClient | undefined;

  private async connect(client: McpClient, shared: boolean): Promise<void> {
    const transport = this.options.open();
    this.open.add(client);
    client.onClose((reason) => {
      this.open.delete(client);
      this.options.onEvent?.({ type: 'ended', shared, detail: reason.message });
    });
    try {
      await client.connect(transport, { timeout: this.options.startTimeout ?? 30_000 });
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
    this.options.onEvent?.({
      type: 'started',
      shared,
      detail: `${client.serverInfo?.name ?? 'server'} (${client.era === 'stateless' ? '2026-07-28' : client.protocolVersion})`,
    });
  }

  /** The shared back ends once nothing used it for the idle timeout and no front session follows it. */
  private armIdle(): void {
    const idle = this.options.idleTimeout ?? 300_000;
    if (idle <= 0) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const pending = this.sharedBack;
      if (!pending) return;
      void pending
        .then(({ client, link }) => {
          if (link.busy || link.sessions.size > 0) {
            this.armIdle();
            return;
          }
          if (this.sharedBack === pending) this.sharedBack = undefined;
          return client.close();
        })
        .catch(() => {});
    }, idle);
    this.idleTimer.unref();
  }
}

/**
 * The capabilities the back server is offered for a handshake client: what the client declared, less what
 * its revision cannot carry (elicitation came with 2025-06-18, its URL mode with 2025-11-25), so that a
 * server asks for it never, or is refused by its own capability check with a clear error.
 */
function carried(request: OpeningRequest): ClientCapabilities {
  const { elicitation, ...rest } = request.capabilities;
  if (elicitation === undefined || !atLeast(request.protocolVersion, '2025-06-18')) return rest;
  if (atLeast(request.protocolVersion, '2025-11-25')) return request.capabilities;
  const { url: _url, ...form } = elicitation as Record<string, unknown>;
  return { ...rest, elicitation: form };
}
