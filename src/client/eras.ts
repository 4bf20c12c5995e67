// How the client finds out which era a server speaks, and remembers it. It probes with server/discover
// (2026-07-28) and falls back to the initialize handshake on any answer that is not a modern one, or on a
// timeout: never on one particular error code, since old servers answer an unknown first request in many
// ways.

import type { Connection } from '../jsonrpc/connection.js';
import { LATEST_MODERN_VERSION, MetaKey, MODERN_VERSIONS } from '../protocol/modern.js';
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ServerCapabilities,
} from '../protocol/types.js';

export type Era = 'modern' | 'handshake';

export interface DiscoverResult {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
  _meta?: Record<string, unknown>;
}

/** Eras learned per server, for the life of this process (keyed by the host's name for the server). */
const remembered = new Map<string, Era>();

export function rememberedEra(key: string | undefined): Era | undefined {
  return key === undefined ? undefined : remembered.get(key);
}

export function rememberEra(key: string | undefined, era: Era): void {
  if (key !== undefined) remembered.set(key, era);
}

/** The `_meta` envelope every stateless request carries. */
export function envelope(
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
  logLevel: LoggingLevel | undefined,
): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    [MetaKey.ProtocolVersion]: LATEST_MODERN_VERSION,
    [MetaKey.ClientCapabilities]: capabilities,
    [MetaKey.ClientInfo]: clientInfo,
  };
  if (logLevel !== undefined) meta[MetaKey.LogLevel] = logLevel;
  return meta;
}

/** Adds the envelope to a request's params, keeping any `_meta` the caller set. */
export function withEnvelope(
  params: Record<string, unknown> | undefined,
  meta: Record<string, unknown>,
): Record<string, unknown> {
  const own = (params?._meta ?? {}) as Record<string, unknown>;
  return { ...params, _meta: { ...own, ...meta } };
}

/** The discover result when the server speaks the stateless revision, undefined otherwise. */
export async function probe(
  connection: Connection,
  meta: Record<string, unknown>,
  timeout: number,
): Promise<DiscoverResult | undefined> {
  try {
    const result = await connection.request<DiscoverResult>('server/discover', { _meta: meta }, { timeout });
    const versions = Array.isArray(result?.supportedVersions) ? result.supportedVersions : [];
    return versions.some((v) => (MODERN_VERSIONS as readonly string[]).includes(v)) ? result : undefined;
  } catch {
    return undefined;
  }
}
