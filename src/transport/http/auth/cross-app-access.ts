// Enterprise-managed authorization (MCP extension SEP-990, "cross-app access"; the IETF draft Identity
// Assertion JWT Authorization Grant). The person signed in to the client through the enterprise's
// identity provider (IdP) and the client holds the ID token. With it the client asks the IdP, by token
// exchange (RFC 8693), for an ID-JAG: a JWT grant for one MCP server (`resource`) at that server's
// authorization server (`audience`, its issuer identifier), which the IdP issues as the enterprise's
// policy allows. The client then presents the ID-JAG at the authorization server's token endpoint as a
// JWT bearer grant (RFC 7523), authenticated as the client registered there. No browser is involved, so a
// token that expires is replaced the same way, from a fresh ID token.

import type { ClientKey } from './client-authentication.js';
import { readClientKey } from './client-authentication.js';
import { AuthorizationError } from './errors.js';
import { discoverIssuerMetadata, MetadataError } from './metadata.js';
import { postTokenRequest } from './token-request.js';
import type { StoredClient } from './token-store.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

export interface CrossAppAccess {
  /**
   * The ID token of the person's single sign-on at the IdP. A function is asked each time an ID-JAG is
   * needed, so that it can hand over a fresh one.
   */
  idToken: string | (() => string | Promise<string>);
  /** The IdP's issuer identifier (its metadata names the token endpoint), or its token endpoint itself. */
  idpIssuer?: string;
  idpTokenEndpoint?: string;
  /** This client as registered at the IdP. */
  idpClientId: string;
  idpClientSecret?: string;
  /** client_secret_basic (default with a secret), client_secret_post, private_key_jwt (default with a key), or none. */
  idpTokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
  idpClientKey?: ClientKey;
  /**
   * The file `idToken` reads (see crossAppAccessFromStored): kept with the tokens, with the IdP's details,
   * so that a client made later without these options (a later command) takes its next token the same way.
   */
  idTokenFile?: string;
}

/** Cross-app access as a store keeps it: the ID token read from its file each time it is needed. */
export function crossAppAccessFromStored(stored: NonNullable<StoredClient['cross_app']>): CrossAppAccess {
  return {
    idToken: async () => {
      const { readFile } = await import('node:fs/promises');
      return (await readFile(stored.id_token_file, 'utf8')).trim();
    },
    idTokenFile: stored.id_token_file,
    ...(stored.idp_issuer ? { idpIssuer: stored.idp_issuer } : {}),
    ...(stored.idp_token_endpoint ? { idpTokenEndpoint: stored.idp_token_endpoint } : {}),
    idpClientId: stored.idp_client_id,
    ...(stored.idp_client_secret ? { idpClientSecret: stored.idp_client_secret } : {}),
  };
}

/** What a store keeps of cross-app access read from a file (none without `idTokenFile`, or with a key). */
export function storedCrossAppAccess(access: CrossAppAccess): StoredClient['cross_app'] {
  if (!access.idTokenFile || access.idpClientKey) return undefined;
  return {
    id_token_file: access.idTokenFile,
    ...(access.idpIssuer ? { idp_issuer: access.idpIssuer } : {}),
    ...(access.idpTokenEndpoint ? { idp_token_endpoint: access.idpTokenEndpoint } : {}),
    idp_client_id: access.idpClientId,
    ...(access.idpClientSecret ? { idp_client_secret: access.idpClientSecret } : {}),
  };
}

export interface IdJagRequest {
  /** The authorization server of the MCP server: the ID-JAG's audience. */
  issuer: string;
  /** The MCP server's resource identifier. */
  resource: string;
  scope: string | undefined;
  fetch: typeof fetch;
  now: number;
}

/** Exchanges the ID token for an ID-JAG at the IdP (RFC 8693); the ID-JAG itself. */
export async function requestIdJag(access: CrossAppAccess, request: IdJagRequest): Promise<string> {
  const { endpoint, idpIssuer } = await idpTokenEndpoint(access, request.fetch);
  const idToken = typeof access.idToken === 'function' ? await access.idToken() : access.idToken;
  if (typeof idToken !== 'string' || idToken === '') {
    throw new AuthorizationError('cross-app access needs the ID token of the single sign-on, and got none');
  }
  const answer = await postTokenRequest({
    endpoint,
    issuer: idpIssuer,
    client: idpClient(access),
    params: {
      grant_type: TOKEN_EXCHANGE_GRANT,
      requested_token_type: ID_JAG_TOKEN_TYPE,
      audience: request.issuer,
      resource: request.resource,
      ...(request.scope ? { scope: request.scope } : {}),
      subject_token: idToken,
      subject_token_type: ID_TOKEN_TYPE,
    },
    fetch: request.fetch,
    now: request.now,
  });
  if (answer.issued_token_type !== undefined && answer.issued_token_type !== ID_JAG_TOKEN_TYPE) {
    throw new AuthorizationError(
      `the identity provider ${idpIssuer} answered the token exchange with a ${String(answer.issued_token_type)}, not an ID-JAG`,
    );
  }
  return answer.access_token;
}

async function idpTokenEndpoint(
  access: CrossAppAccess,
  fetcher: typeof fetch,
): Promise<{ endpoint: string; idpIssuer: string }> {
  if (access.idpTokenEndpoint) {
    return { endpoint: access.idpTokenEndpoint, idpIssuer: access.idpIssuer ?? access.idpTokenEndpoint };
  }
  if (!access.idpIssuer) {
    throw new AuthorizationError(
      'cross-app access needs the identity provider: its issuer or its token endpoint',
    );
  }
  try {
    const metadata = await discoverIssuerMetadata(access.idpIssuer, fetcher);
    if (typeof metadata.token_endpoint !== 'string') {
      throw new AuthorizationError(`the identity provider ${access.idpIssuer} names no token_endpoint`);
    }
    return { endpoint: metadata.token_endpoint, idpIssuer: access.idpIssuer };
  } catch (error) {
    if (error instanceof MetadataError) throw new AuthorizationError(error.message, { cause: error });
    throw error;
  }
}

function idpClient(access: CrossAppAccess): StoredClient {
  const client: StoredClient = { client_id: access.idpClientId };
  if (access.idpClientSecret !== undefined) client.client_secret = access.idpClientSecret;
  if (access.idpClientKey) {
    const key = readClientKey(access.idpClientKey);
    client.private_key_jwk = key.privateJwk;
    client.signing_alg = key.algorithm;
    if (key.keyId) client.key_id = key.keyId;
  }
  client.token_endpoint_auth_method =
    access.idpTokenEndpointAuthMethod ??
    (access.idpClientKey
      ? 'private_key_jwt'
      : access.idpClientSecret !== undefined
        ? 'client_secret_basic'
        : 'none');
  return client;
}
