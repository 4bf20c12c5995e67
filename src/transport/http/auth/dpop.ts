// DPoP (RFC 9449; MCP extension SEP-1932): tokens bound to a key the client holds, so that a token that
// leaks is of no use without the key. The client makes an ES256 key pair, and every request that carries
// or asks for such a token carries a proof too: a JWT signed with that key (`typ` dpop+jwt, the public key
// in its header) naming the request's method and URL (`htm`, `htu`, without query or fragment), a fresh
// `jti`, the time, the server's nonce when it asked for one, and for a resource request the hash of the
// access token (`ath`). The key is kept with the tokens it is bound to.

import type { JsonWebKey } from 'node:crypto';
import { nodeCrypto } from '../../platform/builtins.js';

export const DPOP_ALGORITHM = 'ES256';

/** A new DPoP key (its private JWK, which is what the token store keeps). */
export function createDpopKey(): JsonWebKey {
  return nodeCrypto().generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
}

export interface ProofRequest {
  method: string;
  url: string | URL;
  /** The access token the request carries (a resource request), hashed into `ath`. */
  accessToken?: string;
  nonce?: string;
}

/** A DPoP proof for one request, signed with `key` (a private P-256 JWK). */
export async function dpopProof(
  key: JsonWebKey,
  request: ProofRequest,
  now: number = Date.now(),
): Promise<string> {
  const jose = await import('jose');
  const privateKey = nodeCrypto().createPrivateKey({ key, format: 'jwk' });
  const { kty, crv, x, y } = nodeCrypto().createPublicKey(privateKey).export({ format: 'jwk' });
  const htu = new URL(request.url);
  htu.search = '';
  htu.hash = '';
  const claims: Record<string, string> = { htm: request.method.toUpperCase(), htu: htu.href };
  if (request.accessToken !== undefined) {
    claims.ath = nodeCrypto().createHash('sha256').update(request.accessToken, 'ascii').digest('base64url');
  }
  if (request.nonce !== undefined) claims.nonce = request.nonce;
  return new jose.SignJWT(claims)
    .setProtectedHeader({
      typ: 'dpop+jwt',
      alg: DPOP_ALGORITHM,
      jwk: { kty, crv, x, y } as Record<string, string>,
    })
    .setJti(nodeCrypto().randomUUID())
    .setIssuedAt(Math.floor(now / 1000))
    .sign(privateKey);
}
