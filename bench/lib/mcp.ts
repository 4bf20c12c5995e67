// What the suites that call MCP servers share: client peers (bench/peers/*-client.mjs, driven through
// bench/peers/mcp-driver.mjs) each talking to a server command of their own, or one talking to several in
// turn (withSharedClient).

import { type Command, type Commander, PEERS_DIR, type Peer, withPeers } from './peer.js';
import { median } from './timing.js';

/** One tools/call run, as mcp-driver.mjs reports it; serverCpuMs is absent off Linux. */
export interface CallRun {
  ms: number;
  clientCpuMs: number;
  serverCpuMs?: number;
}

/** A read, timed, or how it failed (then `ms` is the time until it did). */
export interface ReadRun {
  ms: number;
  failed?: string;
}

/**
 * Peak RSS of a client peer and of its child process (server or proxy; absent off Linux), in KiB, and
 * that process's pid (the one a suite that watches the server from outside needs: http-instructions).
 */
export interface PeerStats {
  clientPeakRssKiB: number;
  serverPeakRssKiB?: number;
  serverPid: number;
}

export interface ColdRun {
  ms: number;
  peakRssKiB?: number;
}

/** `node bench/peers/SCRIPT CONFIG` as a command line. */
export function nodeScript(script: string, config?: unknown): string[] {
  const args = [process.execPath, `${PEERS_DIR}${script}`];
  if (config !== undefined) args.push(JSON.stringify(config));
  return args;
}

export interface ClientSpec {
  /** The client script in bench/peers. */
  client: string;
  /** The server command line the client spawns. */
  server: string[];
  /** More configuration for the client script. */
  config?: Record<string, unknown>;
}

/** Starts a client peer per spec (each spawns its server and initializes), runs `body`, closes them. */
export function withClients<T>(
  specs: readonly ClientSpec[],
  body: (peers: Peer[]) => Promise<T>,
): Promise<T> {
  return withPeers(
    specs.map((spec) => ({ script: spec.client, config: { ...spec.config, server: spec.server } })),
    body,
  );
}

/**
 * Starts one client peer connected to every server command (mcp-driver.mjs's "servers"), and runs `body`
 * with a Commander per server, which runs each command against that server only. Servers compared through
 * one client share whatever that process's luck does to the rate: where the client is what bounds the
 * rate, a client of each server's own would set the servers apart by its luck.
 */
export function withSharedClient<T>(
  client: string,
  servers: readonly string[][],
  config: Record<string, unknown>,
  body: (servers: Commander[]) => Promise<T>,
): Promise<T> {
  // The Commanders share one peer, which runs their commands one at a time, whichever server each targets.
  return withPeers([{ script: client, config: { ...config, servers } }], ([peer]) =>
    body(
      servers.map((_, target) => ({
        command: <R>(command: Command) => peer!.command<R>({ ...command, target }),
      })),
    ),
  );
}

/** Peak RSS for a row, leaving out what could not be measured. */
export function peakRss(entries: Record<string, number | undefined>): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const [name, kib] of Object.entries(entries)) if (kib !== undefined) out[name] = kib / 1024;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The median of the values that are there, or undefined if none is. */
export function medianOf(values: ReadonlyArray<number | undefined>): number | undefined {
  const present = values.filter((v): v is number => v !== undefined);
  return present.length > 0 ? median(present) : undefined;
}
