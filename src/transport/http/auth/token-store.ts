// Where an OAuth client keeps what it learned about a protected server: the authorization server that
// issued its credentials, the client registration there, and the tokens. Keyed by issuer and resource:
// credentials of one authorization server are never offered to another, and a server that moves to
// another authorization server and back finds its first registration still there (no second one). In
// memory by default; the CLI keeps a file (file-token-store.ts).

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
  /**
   * A machine client: 'client_credentials' takes a new token by that grant, 'workload_identity' by the
   * workload's JWT read again from `workload_token_file`; no person either way.
   */
  grant?: 'client_credentials' | 'workload_identity' | 'cross_app_access';
  /** For 'workload_identity': the file the platform keeps the workload's current JWT in. */
  workload_token_file?: string;
  /**
   * For 'cross_app_access': the file the person's ID token is read from each time, and this client at the
   * identity provider (its secret kept like a client secret).
   */
  cross_app?: {
    id_token_file: string;
    idp_issuer?: string;
    idp_token_endpoint?: string;
    idp_client_id: string;
    idp_client_secret?: string;
  };
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
  /** The record of `resource` from `issuer`; without an issuer, the one of that resource saved last. */
  load(resource: string, issuer?: string): Promise<AuthRecord | undefined>;
  /** Keeps the record under its issuer and resource, as the resource's latest. */
  save(record: AuthRecord): Promise<void>;
  /** Forgets the record of `resource` from `issuer`, or from every issuer. */
  delete(resource: string, issuer?: string): Promise<void>;
}

/** A record's key in a store: a space never occurs in a URL, so no two pairs share a key. */
export function storeKey(issuer: string, resource: string): string {
  return `${issuer} ${resource}`;
}

/**
 * The record a store returns for `load(resource, issuer)` from its records in the order they were last
 * saved (oldest first).
 */
export function findRecord(
  records: Iterable<AuthRecord>,
  resource: string,
  issuer?: string,
): AuthRecord | undefined {
  let found: AuthRecord | undefined;
  for (const record of records) {
    if (record.resource === resource && (issuer === undefined || record.issuer === issuer)) found = record;
  }
  return found;
}

export class InMemoryTokenStore implements TokenStore {
  /** In the order last saved: a save moves its record to the end. */
  private readonly records = new Map<string, AuthRecord>();

  async load(resource: string, issuer?: string): Promise<AuthRecord | undefined> {
    const record = findRecord(this.records.values(), resource, issuer);
    return record && structuredClone(record);
  }

  async save(record: AuthRecord): Promise<void> {
    const key = storeKey(record.issuer, record.resource);
    this.records.delete(key);
    this.records.set(key, structuredClone(record));
  }

  async delete(resource: string, issuer?: string): Promise<void> {
    for (const [key, record] of this.records) {
      if (record.resource === resource && (issuer === undefined || record.issuer === issuer)) {
        this.records.delete(key);
      }
    }
  }
}
