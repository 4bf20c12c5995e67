// The proxy, composed: a front (Streamable HTTP on a port, or this process's stdio) that speaks whatever
// era its client speaks, a Forwarder, and the back servers (backs.ts). `mcpwire proxy` wires these to its
// options; a library user can do the same.

import type { Transport } from '../jsonrpc/transport.js';
import { ServerSession } from '../protocol/server-session.js';
import { type ListenOptions, listenHttp } from '../server/http.js';
import { processStdioTransport } from '../server/stdio-process.js';
import { Backs, type BacksOptions } from './backs.js';
import { Forwarder } from './forwarder.js';

export interface ProxyOptions extends BacksOptions {
  /** How long the front waits for its client to answer a request the back server put to it, in ms (10 min). */
  askTimeout?: number;
}

export interface HttpProxy {
  url: string;
  /** Ends every session and every back server. */
  close(): Promise<void>;
}

function forwarderFor(backs: Backs): Forwarder {
  return new Forwarder(backs, {
    // A session whose own server ended has lost that server's state: it ends too, and its client starts
    // a new one (a 404 on its next request).
    onBackClosed: (session) => void (session as ServerSession).close().catch(() => {}),
  });
}

/**
 * Any server over Streamable HTTP (127.0.0.1 and the same limits as serveHttp unless told otherwise).
 * The shared back is started first, so that a server that cannot start is reported before anything
 * listens.
 */
export async function proxyHttp(options: ProxyOptions, listen: ListenOptions = {}): Promise<HttpProxy> {
  const backs = new Backs(options);
  const forwarder = forwarderFor(backs);
  try {
    await forwarder.describe();
  } catch (error) {
    await backs.close();
    throw error;
  }
  const listener = await listenHttp(
    (transport: Transport) => {
      const session = new ServerSession(transport, forwarder, { timeout: options.askTimeout ?? 600_000 });
      forwarder.attach(session);
      session.start();
    },
    withFrontDefaults({ paramHeaders: forwarder.toolMarks.of, ...listen }),
  );
  return {
    url: listener.url,
    close: async () => {
      await listener.close();
      await backs.close();
    },
  };
}

/**
 * The front's HTTP options: an answer that comes back from the server before anything else goes as one
 * JSON body, the SSE stream opening only for what needs it (progress, the server's requests, a call
 * still running after 50 ms). Most forwarded calls are quick, and a stream costs three writes more.
 */
export function withFrontDefaults(listen: ListenOptions): ListenOptions {
  return { streamAfter: 50, ...listen };
}

/**
 * Any server as a stdio server on this process's stdin and stdout. Resolves once stdin has ended and
 * every back server has ended.
 */
export async function proxyStdio(options: ProxyOptions): Promise<void> {
  const backs = new Backs(options);
  const forwarder = forwarderFor(backs);
  const transport = processStdioTransport({ exitOnClose: false });
  const session = new ServerSession(transport, forwarder, { timeout: options.askTimeout ?? 600_000 });
  forwarder.attach(session);
  await new Promise<void>((resolve) => {
    session.connection.onClose(() => resolve());
    session.start();
  });
  await backs.close();
}
