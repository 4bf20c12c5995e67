// The resource server's side of DPoP (RFC 9449 §4.3 and §7): a request that presents a DPoP-bound token
// (`Authorization: DPoP <token>`) carries one proof, a JWT signed by the client's key, and the proof must
// be made for this request: `typ` dpop+jwt, an asymmetric algorithm, the public key in its header (never a
// private one), the request's method (`htm`) and URL without query or fragment (`htu`), a fresh `iat`, a
// `jti` not seen before within the window, and the hash of the token it comes with (`ath`). What comes out
// is the key's thumbprint (RFC 7638), which the token's `cnf.jkt` must equal. jose does the cryptography.

import { nodeCrypto } from '../../platform/builtins.js';

/** Algorithms a proof may be signed with (asymmetric only; RFC 9449 §4.2). */
export const DPOP_PROOF_ALGORITHMS = ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'] as const;

/** A proof that does not prove what it must: answered 401 `invalid_dpop_proof`. */
export class InvalidDpopProofError extends Error {
  override readonly name = 'InvalidDpopProofError';
}

export interface ProofContext {
  /** The request's method. */
  method: string;
  /** The URLs the request may have been sent to (its public URL, and as it arrived), any query dropped. */
  urls: readonly string[];
  /** The access token the request carries, whose hash the proof must name (`ath`). */
  accessToken: string;
}

export class DpopProofChecker {
  /** The `jti` of each proof accepted within the window, with when it may be forgotten (ms). */
  private readonly seen = new Map<string, number>();

  constructor(
    /** How far a proof's `iat` may be from now, either way, in seconds (60). */
    private readonly windowSeconds = 60,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks a proof for a request; resolves with the thumbprint of the key that signed it. */
  async check(proof: string, request: ProofContext): Promise<string> {
    const jose = await import('jose');
    let header: ReturnType<typeof jose.decodeProtectedHeader>;
    try {
      header = jose.decodeProtectedHeader(proof);
    } catch {
      throw new InvalidDpopProofError('the DPoP proof is not a well-formed JWT');
    }
    if (header.typ !== 'dpop+jwt') throw new InvalidDpopProofError('the DPoP proof is not typed dpop+jwt');
    const algorithm = header.alg ?? '';
    if (!(DPOP_PROOF_ALGORITHMS as readonly string[]).includes(algorithm)) {
      throw new InvalidDpopProofError(
        `the DPoP proof is signed with an algorithm not accepted (${algorithm})`,
      );
    }
    const jwk = header.jwk;
    if (!jwk || typeof jwk !== 'object' || 'd' in jwk) {
      throw new InvalidDpopProofError('the DPoP proof does not carry a public key (jwk)');
    }
    let payload: Record<string, unknown>;
    try {
      const key = await jose.importJWK(jwk, algorithm);
      ({ payload } = await jose.jwtVerify(proof, key, { typ: 'dpop+jwt', algorithms: [algorithm] }));
    } catch {
      throw new InvalidDpopProofError('the DPoP proof signature does not verify with its key');
    }
    if (typeof payload.htm !== 'string' || payload.htm !== request.method.toUpperCase()) {
      throw new InvalidDpopProofError(`the DPoP proof is for another method (htm), not ${request.method}`);
    }
    if (
      typeof payload.htu !== 'string' ||
      !request.urls.map(withoutQuery).includes(withoutQuery(payload.htu))
    ) {
      throw new InvalidDpopProofError('the DPoP proof is for another URL (htu)');
    }
    const now = this.now();
    if (typeof payload.iat !== 'number' || Math.abs(payload.iat * 1000 - now) > this.windowSeconds * 1000) {
      throw new InvalidDpopProofError('the DPoP proof is not fresh (iat)');
    }
    const hash = nodeCrypto().createHash('sha256').update(request.accessToken, 'ascii').digest('base64url');
    if (payload.ath !== hash) {
      throw new InvalidDpopProofError('the DPoP proof is for another access token (ath)');
    }
    if (typeof payload.jti !== 'string' || payload.jti === '') {
      throw new InvalidDpopProofError('the DPoP proof has no jti');
    }
    // Oldest first: stop at the first one still remembered (the rest go on a later request).
    for (const [jti, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(jti);
    }
    if (this.seen.has(payload.jti)) throw new InvalidDpopProofError('the DPoP proof was used before (jti)');
    // Remembered until its iat can no longer pass the freshness check.
    this.seen.set(payload.jti, payload.iat * 1000 + this.windowSeconds * 1000 + 1000);
    return jose.calculateJwkThumbprint(jwk, 'sha256');
  }
}

/** A URL as `htu` compares (RFC 9449 §4.3): no query, no fragment; unparseable ones compare as they are. */
function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.search = '';
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}
