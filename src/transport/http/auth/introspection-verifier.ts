// Verifies opaque access tokens by asking the authorization server (token introspection, RFC 7662). An
// answer is kept for a short while (30 s, never past the token's expiry), keyed by a hash of the token so
// that the cache holds no credential, because asking on every request would put the authorization server
// on the request's path. The answer must say the token is active, for this resource (`aud`), from the
// trusted issuer, and not expired.

import { monotonicNow } from '../../../jsonrpc/clock.js';
import type { AuthInfo } from '../../../jsonrpc/transport.js';
import { nodeCrypto } from '../../platform/builtins.js';
import { authInfoFromClaims } from './jwt-verifier.js';
import { InvalidTokenError, type TokenVerifier } from './resource-server.js';

export interface IntrospectionVerifierOptions {
  /** The introspection endpoint. */
  endpoint: string;
  /** This resource server's credentials at the authorization server (HTTP Basic). */
  clientId: string;
  clientSecret: string;
  /** What an active token must name as its audience (this server's canonical URI). */
  audience: string;
  /** When given, the issuer an answer must name (`iss`), if it names one. */
  issuer?: string;
  /** How long an answer is reused, in ms (30 000; 0 asks every time). */
  cacheMs?: number;
  /** At most this many answers are kept (10 000). */
  cacheSize?: number;
  fetch?: typeof fetch;
  /** How long the introspection endpoint may take to answer, in ms (10 000). */
  timeout?: number;
  /**
   * How long, after the endpoint could not answer, tokens not in the cache are answered "cannot be
   * checked now" without asking again, in ms (5 000): otherwise every token of a flood is a request to it.
   */
  retryAfter?: number;
}

export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const cacheMs = options.cacheMs ?? 30_000;
  const cacheSize = options.cacheSize ?? 10_000;
  const cache = new Map<string, { until: number; auth: AuthInfo | InvalidTokenError }>();
  const fetcher = options.fetch ?? fetch;
  const basic = `Basic ${Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64')}`;

  const timeout = options.timeout ?? 10_000;
  const pause = options.retryAfter ?? 5_000;
  /** The endpoint's last failure, repeated to every token not in the cache until `until`. */
  let outage: { until: number; error: Error } | undefined;

  const ask = async (token: string): Promise<AuthInfo> => {
    const response = await fetcher(options.endpoint, {
      signal: AbortSignal.timeout(timeout),
      method: 'POST',
      headers: {
        Authorization: basic,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`the introspection endpoint answered HTTP ${response.status}`);
    }
    const claims = (await response.json()) as Record<string, unknown>;
    if (claims.active !== true)
      throw new InvalidTokenError('the token is not active (revoked, expired or unknown)');
    const audience = claims.aud;
    const audiences = Array.isArray(audience) ? audience : audience === undefined ? [] : [audience];
    if (!audiences.includes(options.audience)) {
      throw new InvalidTokenError('the token is for another resource (aud)');
    }
    if (options.issuer && claims.iss !== undefined && claims.iss !== options.issuer) {
      throw new InvalidTokenError('the token comes from an issuer this server does not trust (iss)');
    }
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now()) {
      throw new InvalidTokenError('the token has expired');
    }
    return authInfoFromClaims(claims);
  };

  return async (token) => {
    const key = nodeCrypto().createHash('sha256').update(token).digest('base64url');
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && hit.until > now) {
      if (hit.auth instanceof InvalidTokenError) throw hit.auth;
      return hit.auth;
    }
    if (outage && monotonicNow() < outage.until) throw outage.error;
    let auth: AuthInfo | InvalidTokenError;
    try {
      auth = await ask(token);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) {
        const failure =
          (error as Error).name === 'TimeoutError'
            ? new Error(`the introspection endpoint did not answer within ${timeout} ms`)
            : (error as Error);
        outage = { until: monotonicNow() + pause, error: failure };
        throw failure;
      }
      auth = error;
    }
    if (cacheMs > 0) {
      const expires = auth instanceof InvalidTokenError ? Infinity : (auth.expiresAt ?? Infinity) * 1000;
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
      cache.set(key, { until: Math.min(now + cacheMs, expires), auth });
    }
    if (auth instanceof InvalidTokenError) throw auth;
    return auth;
  };
}
