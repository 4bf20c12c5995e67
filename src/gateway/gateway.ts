// The gateway, composed: an McpHost that runs every server of a configuration (supervised: a server that
// crashes is restarted with back-off while the others go on), an Aggregator in front of it, and a front
// (this process's stdio, or Streamable HTTP). `mcpwire gateway` wires these to its options.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, type HostConfig, parseConfig } from '../host/config.js';
import { type HostEvent, type HostOptions, McpHost } from '../host/host.js';
import type { Transport } from '../jsonrpc/transport.js';
import { ServerSession } from '../protocol/server-session.js';
import type { Implementation } from '../protocol/types.js';
import { type ListenOptions, listenHttp } from '../server/http.js';
import { processStdioTransport } from '../server/stdio-process.js';
import { Aggregator } from './aggregator.js';
import { parseFilters, type ServerFilters } from './filters.js';
import { withFrontDefaults } from './proxy.js';

export interface GatewayConfig {
  host: HostConfig;
  filters: Map<string, ServerFilters>;
}

/** A configuration file: its servers as McpHost reads them, and the gateway's filters of each. */
export async function loadGatewayConfig(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `cannot read the configuration ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  return {
    host: parseConfig(json, env, path.dirname(path.resolve(file)), file),
    filters: parseFilters(json, file),
  };
}

export interface GatewayOptions {
  info: Implementation;
  /** The host's own options (restart policy, health checks, stderr, authorization, events). */
  host?: Omit<HostOptions, 'client'>;
  /** How long the front waits for its client to answer a server's request, in ms (10 min). */
  askTimeout?: number;
  /** Items per page of every list the gateway gives (100). */
  pageSize?: number;
}

export interface Gateway {
  readonly host: McpHost;
  readonly aggregator: Aggregator;
  /** Serves one client over a transport. */
  connect(transport: Transport): ServerSession;
  close(): Promise<void>;
}

/** Starts every server (those that fail are reported by the host and retried) and returns the gateway. */
export async function openGateway(config: GatewayConfig, options: GatewayOptions): Promise<Gateway> {
  const aggregator = new Aggregator({
    info: options.info,
    filters: config.filters,
    pageSize: options.pageSize,
  });
  const onEvent = options.host?.onEvent;
  const host = new McpHost(config.host, {
    ...options.host,
    client: { ...aggregator.link.clientOptions(undefined), timeout: 3_600_000 },
    onEvent: (event: HostEvent) => {
      // A server gone or back changes every list it contributed to; a server ready now has tools whose
      // header marks the HTTP front checks from now on, listed through it or not.
      if (event.type === 'ready' || event.type === 'crashed') aggregator.listsChanged();
      if (event.type === 'ready') void aggregator.learnToolMarks();
      onEvent?.(event);
    },
  });
  aggregator.serve(host);
  await host.start();
  await aggregator.learnToolMarks();
  return {
    host,
    aggregator,
    connect: (transport) => {
      const session = new ServerSession(transport, aggregator, { timeout: options.askTimeout ?? 600_000 });
      aggregator.attach(session);
      return session.start();
    },
    close: () => host.shutdown(),
  };
}

/** The gateway over Streamable HTTP (127.0.0.1 and serveHttp's limits unless told otherwise). */
export async function serveGatewayHttp(gateway: Gateway, listen: ListenOptions = {}) {
  return listenHttp(
    (transport) => void gateway.connect(transport),
    withFrontDefaults({ paramHeaders: gateway.aggregator.toolMarks.of, ...listen }),
  );
}

/** The gateway on this process's stdio; resolves once stdin has ended. */
export function serveGatewayStdio(gateway: Gateway): Promise<void> {
  const session = gateway.connect(processStdioTransport({ exitOnClose: false }));
  return new Promise((resolve) => session.connection.onClose(() => resolve()));
}
