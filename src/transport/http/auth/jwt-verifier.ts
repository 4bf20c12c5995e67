// Verifies JWT access tokens (RFC 9068) against the issuer's published keys, with `jose`: the signature
// with an allowed algorithm only (never `none`, never a symmetric one unless asked), `iss`, `aud` equal to
// this resource (RFC 8707: a token for another server is refused, so a token stolen there is worth nothing
// here), `exp` and `nbf` with a small clock skew. jose is loaded on the first token, not when mcpwire is
// imported. Where the keys are comes from the issuer's metadata unless given.

import { monotonicNow } from '../../../jsonrpc/clock.js';
import type { AuthInfo } from '../../../jsonrpc/transport.js';
import { discoverIssuerMetadata } from './metadata.js';
import { InvalidTokenError, type TokenVerifier } from './resource-server.js';

export interface JwtVerifierOptions {
  /** The issuer tokens must name (`iss`), exactly as its metadata says it. */
  issuer: string;
  /** What tokens must name as their audience (`aud`): this server's canonical URI. */
  audience: string | readonly string[];
  /** The issuer's JWK Set; by default `jwks_uri` from its metadata (RFC 8414, or OpenID discovery). */
  jwksUri?: string;
  /** Signature algorithms accepted (RS256, PS256, ES256, EdDSA). */
  algorithms?: readonly string[];
  /** Clock skew allowed on `exp` and `nbf`, in seconds (30). */
  clockTolerance?: number;
  /** For tests and private deployments: fetch used for the metadata (the JWKS goes through jose). */
  fetch?: typeof fetch;
  /** How long the issuer may take to answer for its metadata or its keys, in ms (10 000). */
  timeout?: number;
  /**
   * How long, after the metadata or the keys could not be had, tokens are answered "cannot be checked
   * now" without asking again, in ms (5 000): otherwise every token of a flood is a request to the issuer.
   */
  retryAfter?: number;
}

const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  const timeout = options.timeout ?? 10_000;
  const pause = options.retryAfter ?? 5_000;
  /** The last failure to get the metadata or the keys, repeated to every token until `until`. */
  let outage: { until: number; error: Error } | undefined;
  const failed = (error: Error): Error => {
    outage = { until: monotonicNow() + pause, error };
    return error;
  };
  // One key set for the verifier's life: jose caches the keys and fetches again (with a cool-down) when
  // a token names a key it does not know, which is how an issuer's key rotation reaches us.
  let keys: Promise<ReturnType<typeof import('jose').createRemoteJWKSet>> | undefined;
  const keySet = () => {
    if (outage && monotonicNow() < outage.until) return Promise.reject(outage.error);
    keys ??= (async () => {
      const jose = await import('jose');
      const uri =
        options.jwksUri ??
        (await discoverIssuerMetadata(options.issuer, timed(options.fetch ?? fetch, timeout))).jwks_uri;
      if (typeof uri !== 'string') {
        throw new Error(`the metadata of ${options.issuer} names no jwks_uri; give jwksUri`);
      }
      return jose.createRemoteJWKSet(new URL(uri), { timeoutDuration: timeout });
    })();
    // A failed discovery is tried again after the pause instead of refusing every token for ever.
    keys.catch((error: Error) => {
      keys = undefined;
      failed(error);
    });
    return keys;
  };
  return async (token) => {
    const jose = await import('jose');
    // What is not a JWT at all needs no keys: refused before the issuer is asked for anything.
    try {
      jose.decodeProtectedHeader(token);
    } catch {
      throw new InvalidTokenError('the token is not a well-formed JWT');
    }
    const jwks = await keySet();
    try {
      const { payload, protectedHeader } = await jose.jwtVerify(token, jwks, {
        issuer: options.issuer,
        audience: typeof options.audience === 'string' ? options.audience : [...options.audience],
        algorithms,
        clockTolerance: options.clockTolerance ?? 30,
        requiredClaims: ['exp'],
      });
      if (protectedHeader.typ && !/^(application\/)?(at\+jwt|jwt)$/i.test(protectedHeader.typ)) {
        throw new InvalidTokenError(`the token is a "${protectedHeader.typ}", not an access token`);
      }
      return authInfoFromClaims(payload);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      // The keys could not be fetched: nothing is known of the token, so no 401 (the resource server
      // says 503), and the issuer is not asked again before the pause.
      if (keysUnavailable(error)) {
        throw failed(new Error(`the issuer's keys could not be fetched: ${(error as Error).message}`));
      }
      throw new InvalidTokenError(describeJoseError(error));
    }
  };
}

/** A failure of jose's key set fetch (timeout, HTTP status, not JSON, network), not of the token. */
function keysUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    typeof code !== 'string' ||
    code === 'ERR_JWKS_TIMEOUT' ||
    code === 'ERR_JOSE_GENERIC' ||
    code === 'ERR_JWKS_INVALID'
  );
}

/** `fetcher` with a deadline, whose error says so. */
function timed(fetcher: typeof fetch, ms: number): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    try {
      return await fetcher(input, { ...init, signal: AbortSignal.timeout(ms) });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') throw new Error(`did not answer within ${ms} ms`);
      throw error;
    }
  }) as typeof fetch;
}

/**
 * One verifier for tokens from several trusted issuers: the token's own (unverified) `iss` picks the
 * issuer whose keys must then verify it, so a token can never choose keys it was not signed with.
 */
export function multiIssuerVerifier(verifiers: ReadonlyMap<string, TokenVerifier>): TokenVerifier {
  return async (token) => {
    const issuer = unverifiedIssuer(token);
    const verify = issuer === undefined ? undefined : verifiers.get(issuer);
    if (!verify)
      throw new InvalidTokenError('the token comes from an issuer this server does not trust (iss)');
    return verify(token);
  };
}

/** The `iss` a JWT claims, read without checking anything (only to choose who checks it). */
function unverifiedIssuer(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof claims.iss === 'string' ? claims.iss : undefined;
  } catch {
    return undefined;
  }
}

/** The caller a set of claims (a JWT's, or an introspection answer's) describes. */
export function authInfoFromClaims(claims: Record<string, unknown>): AuthInfo {
  const scope = claims.scope ?? claims.scp;
  const scopes =
    typeof scope === 'string'
      ? scope.split(' ').filter(Boolean)
      : Array.isArray(scope)
        ? scope.filter((s): s is string => typeof s === 'string')
        : [];
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    subject: text(claims.sub),
    clientId: text(claims.client_id) ?? text(claims.azp),
    scopes,
    expiresAt: typeof claims.exp === 'number' ? claims.exp : undefined,
    issuer: text(claims.iss),
    claims: Object.freeze({ ...claims }),
  };
}

/** jose's errors in a sentence that says what was wrong with the token, never the token itself. */
function describeJoseError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const claim = (error as { claim?: string }).claim;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'the token has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'nbf') return 'the token is not valid yet (nbf)';
      if (claim === 'aud') return 'the token is for another resource (aud)';
      if (claim === 'iss') return 'the token comes from an issuer this server does not trust (iss)';
      return `the token's "${claim}" claim is not acceptable`;
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'the token signature does not verify';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'the token is signed with an algorithm this server does not accept';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'the token is signed with a key the issuer does not publish (unknown kid)';
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'the token names its key ambiguously';
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return 'the token is not a well-formed JWT';
    default:
      return code ? `the token was refused (${code})` : 'the token could not be checked';
  }
}
