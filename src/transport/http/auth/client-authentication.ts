// How a client proves who it is at a token endpoint (RFC 6749 §2.3, RFC 7591 token_endpoint_auth_method):
// client_secret_basic, client_secret_post, none (a public client names itself), or private_key_jwt
// (RFC 7523 §2.2, the method MCP's client credentials extension recommends): a short-lived JWT that the
// client signs with its own key, `iss` and `sub` its client id, `aud` the authorization server's issuer
// identifier, and a fresh `jti`, so that no shared secret ever travels. jose signs it, loaded on the
// first assertion.

import type { JsonWebKey, KeyObject } from 'node:crypto';
import { nodeCrypto } from '../../platform/builtins.js';
import { AuthorizationError } from './errors.js';
import type { StoredClient } from './token-store.js';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A client's signing key for private_key_jwt. */
export interface ClientKey {
  /** The private key: a PEM (PKCS#8, or PKCS#1/SEC1) or a private JWK. */
  privateKey: string | JsonWebKey;
  /** The key id (`kid`) the authorization server knows the public key by. */
  keyId?: string;
  /** The JWS algorithm; by default what the key implies (RS256, ES256/384/512, EdDSA) or its JWK `alg`. */
  algorithm?: string;
}

/** Reads a private key (PEM or JWK): its JWK form for storage, its public JWK for registration, its algorithm. */
export function readClientKey(
  key: ClientKey,
  supported?: readonly string[],
): { privateJwk: JsonWebKey; publicJwk: JsonWebKey; algorithm: string; keyId?: string } {
  let object: KeyObject;
  try {
    object =
      typeof key.privateKey === 'string'
        ? nodeCrypto().createPrivateKey(key.privateKey)
        : nodeCrypto().createPrivateKey({ key: key.privateKey, format: 'jwk' });
  } catch (error) {
    throw new AuthorizationError(
      `the client's private key could not be read (${(error as Error).message}); give a PEM private key or a private JWK`,
      { cause: error },
    );
  }
  if (object.asymmetricKeyType === undefined || object.type !== 'private') {
    throw new AuthorizationError("the client's key is not a private key");
  }
  const jwkAlg = typeof key.privateKey === 'object' ? key.privateKey.alg : undefined;

  const jwkKid = typeof key.privateKey === 'object' ? key.privateKey.kid : undefined;
  const keyId = key.keyId ?? (typeof jwkKid === 'string' ? jwkKid : undefined);
  const algorithm =
    key.algorithm ?? (typeof jwkAlg === 'string' ? jwkAlg : impliedAlgorithm(object, supported));
  const publicJwk: JsonWebKey = {
    ...nodeCrypto().createPublicKey(object).export({ format: 'jwk' }),
    alg: algorithm,
  };
  if (keyId) publicJwk.kid = keyId;
  return {
    privateJwk: object.export({ format: 'jwk' }),
    publicJwk,
    algorithm,
    ...(keyId ? { keyId } : {}),
  };
}

/** The algorithm a key type implies; for RSA, the first of RS256 and PS256 the server supports. */
function impliedAlgorithm(key: KeyObject, supported: readonly string[] | undefined): string {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return supported && !supported.includes('RS256') && supported.includes('PS256') ? 'PS256' : 'RS256';
    case 'rsa-pss':
      return 'PS256';
    case 'ec': {
      const byCurve: Record<string, string> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };
      const alg = byCurve[details.namedCurve ?? ''];
      if (alg) return alg;
      break;
    }
    case 'ed25519':
      return 'EdDSA';
  }
  throw new AuthorizationError(
    `no JWS algorithm is known for a ${key.asymmetricKeyType}${details.namedCurve ? ` ${details.namedCurve}` : ''} key; give the algorithm`,
  );
}

/** A signed client assertion (RFC 7523 §3) for `audience`, valid for a minute. */
export async function clientAssertion(
  client: StoredClient,
  audience: string,
  now: number = Date.now(),
): Promise<string> {
  if (!client.private_key_jwk || !client.signing_alg) {
    throw new AuthorizationError(
      `the client ${client.client_id} authenticates with private_key_jwt but has no key`,
    );
  }
  const jose = await import('jose');
  const key = nodeCrypto().createPrivateKey({ key: client.private_key_jwk, format: 'jwk' });
  const issuedAt = Math.floor(now / 1000);
  try {
    return await new jose.SignJWT({})
      .setProtectedHeader({ alg: client.signing_alg, ...(client.key_id ? { kid: client.key_id } : {}) })
      .setIssuer(client.client_id)
      .setSubject(client.client_id)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 60)
      .setJti(nodeCrypto().randomUUID())
      .sign(key);
  } catch (error) {
    throw new AuthorizationError(
      `the client assertion could not be signed with ${client.signing_alg} (${(error as Error).message})`,
      { cause: error },
    );
  }
}

/**
 * Adds the client's authentication to a token request: the Authorization header for client_secret_basic,
 * else `client_id` (and `client_secret` for client_secret_post) in the body, or a signed assertion for
 * private_key_jwt (whose `sub` names the client, so no client_id goes with it). `audience` is the
 * authorization server's issuer identifier.
 */
export async function authenticateClient(
  client: StoredClient,
  audience: string,
  body: URLSearchParams,
  headers: Record<string, string>,
  now?: number,
): Promise<void> {
  const method = client.token_endpoint_auth_method ?? (client.client_secret ? 'client_secret_basic' : 'none');
  if (method === 'private_key_jwt') {
    body.set('client_assertion_type', CLIENT_ASSERTION_TYPE);
    body.set('client_assertion', await clientAssertion(client, audience, now));
    return;
  }
  if (method === 'client_secret_basic' && client.client_secret !== undefined) {
    const pair = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`;
    headers.Authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    return;
  }
  // A workload presenting its platform's JWT has no client id at all (workload-identity.ts).
  if (client.client_id !== '') body.set('client_id', client.client_id);
  if (method === 'client_secret_post' && client.client_secret !== undefined) {
    body.set('client_secret', client.client_secret);
  }
}
