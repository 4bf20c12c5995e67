// The `_meta` envelope every request of the stateless era carries: the revision, the client's
// capabilities and identity, and the log level it wants, in place of a handshake.

import { withKeys } from '../../jsonrpc/with-keys.js';
import { LATEST_STATELESS_VERSION, MetaKey } from '../../protocol/stateless.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../../protocol/types.js';

export function envelope(
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
  logLevel: LoggingLevel | undefined,
): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    [MetaKey.ProtocolVersion]: LATEST_STATELESS_VERSION,
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
  return withKeys(params, { _meta: withKeys(own, meta) });
}
