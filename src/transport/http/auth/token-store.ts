// Where an OAuth client keeps what it learned about a protected server: the authorization server that
// issued its credentials, the client registration there, and the tokens. Keyed by the server's resource
// URI; the record names its issuer, so credentials of one authorization server are never offered to
// another (when a server moves to a new one, the client registers and logs in again). In memory by
// default; the CLI keeps a file (file-token-store.ts).

import type { JsonWebKey } from 'node:crypto';

export interface StoredTokens {
  access_token: string;
  token_type?: string;
  refresh_token?: string;
  /** When the access token expires, in ms since the epoch (from `expires_in` when it was issued). */
  expires_at?: number;
  scope?: string;
}

export interface StoredClient {
  client_id: string;
  client_secret?: string;
  /** How the token endpoint is told who the client is (RFC 7591 token_endpoint_auth_method). */
  token_endpoint_auth_method?: string;
  /** The redirect URI the client was registered with. */
  redirect_uri?: string;
  /** For private_key_jwt: the private key as a JWK (kept like a client secret), its `kid`, its algorithm. */
  private_key_jwk?: JsonWebKey;
  key_id?: string;
  signing_alg?: string;
  /** A machine client ('client_credentials'): a new token is taken by that grant, with no person. */
  grant?: 'client_credentials';
}

export interface AuthRecord {
  /** The resource these credentials are for (the server's canonical URI). */
  resource: string;
  /** The authorization server that issued them. */
  issuer: string;
  /** The `resource` parameter as the server's metadata publishes it, where it differs from `resource`. */
  resource_indicator?: string;
  client?: StoredClient;
  tokens?: StoredTokens;
  /** The DPoP key (a private JWK) the tokens are bound to, when the authorization server offers DPoP. */
  dpop_jwk?: JsonWebKey;
}

export interface TokenStore {
  load(resource: string): Promise<AuthRecord | undefined>;
  save(record: AuthRecord): Promise<void>;
  delete(resource: string): Promise<void>;
}

export class InMemoryTokenStore implements TokenStore {
  private readonly records = new Map<string, AuthRecord>();

  async load(resource: string): Promise<AuthRecord | undefined> {
    const record = this.records.get(resource);
    return record && structuredClone(record);
  }

  async save(record: AuthRecord): Promise<void> {
    this.records.set(record.resource, structuredClone(record));
  }

  async delete(resource: string): Promise<void> {
    this.records.delete(resource);
  }
}
