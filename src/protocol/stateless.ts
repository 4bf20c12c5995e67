// The stateless revision (2026-07-28): no handshake; every request carries its protocol version, the
// client's capabilities and identity in `_meta`. This module reads that envelope, encodes results for the
// revision (resultType, serverInfo, cache hints), and carries the state of multi round-trip requests.

import { ErrorCode } from '../jsonrpc/error-codes.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import { withKeys } from '../jsonrpc/with-keys.js';
import { invalidParams } from './errors.js';
import { isLoggingLevel } from './logging.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from './types.js';

export const STATELESS_VERSIONS = ['2026-07-28'] as const;
export const LATEST_STATELESS_VERSION = '2026-07-28';

export const MetaKey = {
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** What a stateless request says about itself. */
export interface RequestEnvelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LoggingLevel | undefined;
}

/** The `_meta` object of a request's params, if it has one. */
export function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/** Whether a request speaks the stateless revision: it names its protocol version in `_meta`. */
export function isStatelessRequest(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && MetaKey.ProtocolVersion in meta;
}

/** Reads and checks the envelope: -32602 for missing keys, -32022 for a version this server lacks. */
export function readEnvelope(params: unknown): RequestEnvelope {
  const meta = metaOf(params) ?? {};
  const version = meta[MetaKey.ProtocolVersion];
  if (typeof version !== 'string') {
    throw invalidParams(
      `Invalid params: _meta["${MetaKey.ProtocolVersion}"] must be a protocol version string`,
    );
  }
  if (!(STATELESS_VERSIONS as readonly string[]).includes(version)) {
    throw new JsonRpcError(
      ErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version "${version}"; this server supports ${STATELESS_VERSIONS.join(', ')} (and the handshake revisions through initialize)`,
      { supported: [...STATELESS_VERSIONS], requested: version },
    );
  }
  const capabilities = meta[MetaKey.ClientCapabilities];
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
    throw invalidParams(
      `Invalid params: _meta["${MetaKey.ClientCapabilities}"] is required on every request of ${version} ({} for none)`,
    );
  }
  const clientInfo = meta[MetaKey.ClientInfo];
  const logLevel = meta[MetaKey.LogLevel];
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
    throw invalidParams(`Invalid params: _meta["${MetaKey.LogLevel}"] is not a logging level`);
  }
  return {
    protocolVersion: version,
    clientCapabilities: capabilities as ClientCapabilities,
    clientInfo:
      typeof clientInfo === 'object' && clientInfo !== null ? (clientInfo as Implementation) : undefined,
    logLevel: logLevel as LoggingLevel | undefined,
  };
}

/** Methods whose results carry cache hints (CacheableResult). */
const CACHEABLE = new Set([
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'resources/read',
  'server/discover',
]);

export interface CacheHints {
  ttlMs: number;
  cacheScope: 'private' | 'public';
}

/** Adds what every result of the revision carries: resultType, the server's identity, cache hints. */
export function encodeStatelessResult(
  method: string,
  result: Record<string, unknown>,
  serverInfo: Implementation,
  cache: CacheHints,
): Record<string, unknown> {
  const meta = result._meta;
  // withKeys, not spreads that add keys: those take a slow path in Node 20's V8, about 1 µs each, and
  // every result of this revision is encoded here (issue 21). A result with no _meta of its own (most)
  // gets a literal: its key is MetaKey.ServerInfo spelled out (a computed key is a slower literal), which
  // `satisfies` holds to MetaKey.
  const encoded: Record<string, unknown> = withKeys({ resultType: 'complete' }, result);
  encoded._meta =
    typeof meta === 'object' && meta !== null
      ? withKeys(meta, { [MetaKey.ServerInfo]: serverInfo })
      : ({ 'io.modelcontextprotocol/serverInfo': serverInfo } satisfies Record<
          typeof MetaKey.ServerInfo,
          Implementation
        >);
  if (CACHEABLE.has(method)) {
    encoded.ttlMs ??= cache.ttlMs;
    encoded.cacheScope ??= cache.cacheScope;
  }
  return encoded;
}

/** Errors whose code changed in this revision: a missing resource is invalid params here. */
export function encodeStatelessError(error: unknown): unknown {
  if (error instanceof JsonRpcError && error.code === ErrorCode.ResourceNotFound) {
    return new JsonRpcError(ErrorCode.InvalidParams, error.message, error.data);
  }
  return error;
}

// ---- multi round-trip requests ----

/**
 * Thrown by a handler's ask (sampling, elicitation, roots) in the stateless revision when the answer is
 * not known yet: the request ends with an input_required result, and the client calls again with the
 * answer. The handler then runs again from the start and, this time, the ask returns the answer.
 */
export class InputRequired extends Error {
  override readonly name = 'InputRequired';
  constructor(
    readonly key: string,
    readonly request: { method: string; params: unknown },
  ) {
    super(`input required: ${request.method}`);
  }
}
