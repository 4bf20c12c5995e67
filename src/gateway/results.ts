// What differs between the eras in the params and results a proxy forwards. The front's era reads its own
// envelope and the back client adds the back's, so the 2026-07-28 `_meta` keys are taken out on the way in;
// a result of the back's 2026-07-28 revision loses what only that revision has when it goes to a handshake
// client (the front's 2026-07-28 era adds it back for its own clients).

import { MetaKey } from '../protocol/stateless.js';

const ENVELOPE_KEYS = new Set<string>([
  MetaKey.ProtocolVersion,
  MetaKey.ClientCapabilities,
  MetaKey.ClientInfo,
  MetaKey.LogLevel,
  'progressToken',
]);

/** What answers a 2026-07-28 input round: the back's when its round is handed on, the front's otherwise. */
const ROUND_KEYS = ['inputResponses', 'requestState'] as const;

/**
 * The params to send on: without the front's envelope and progress token (the back client adds its own),
 * everything else (cursors, arguments, the rest of `_meta`) as it came. An input round's answers go on
 * only when the back's rounds are handed through (`passRounds`); otherwise they were the front's own.
 */
export function forwardedParams(
  input: Record<string, unknown>,
  passRounds = false,
): {
  params: Record<string, unknown>;
  wantsProgress: boolean;
} {
  let params = input;
  if (!passRounds && ROUND_KEYS.some((key) => key in params)) {
    params = { ...params };
    for (const key of ROUND_KEYS) delete params[key];
  }
  const meta = params._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
    return { params, wantsProgress: false };
  const own = meta as Record<string, unknown>;
  const wantsProgress = own.progressToken !== undefined;
  const kept = Object.entries(own).filter(([key]) => !ENVELOPE_KEYS.has(key));
  const { _meta: _, ...rest } = params;
  return { params: kept.length > 0 ? { ...rest, _meta: Object.fromEntries(kept) } : rest, wantsProgress };
}

/** A back result for the front: a 2026-07-28 result loses its revision's own fields. */
export function frontResult(
  result: Record<string, unknown>,
  fromStateless: boolean,
): Record<string, unknown> {
  if (!fromStateless || typeof result !== 'object' || result === null) return result;
  const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
  const meta = rest._meta;
  if (typeof meta === 'object' && meta !== null && MetaKey.ServerInfo in meta) {
    const { [MetaKey.ServerInfo]: _info, ...others } = meta as Record<string, unknown>;
    if (Object.keys(others).length > 0) rest._meta = others;
    else delete rest._meta;
  }
  return rest;
}
