// An MCP client as an OAuth 2.1 client (MCP basic/authorization, 2025-06-18 and later). It gives the HTTP
// transport the Authorization header of every request and, when a request is refused, finds out what to
// do: a 401 sends it to the protected resource metadata (RFC 9728: the challenge's resource_metadata,
// then the well-known URIs), to the authorization server's metadata (RFC 8414 / OpenID, issuer checked),
// to a client registration (pre-registered, Client ID Metadata Document, or dynamic registration RFC
// 7591, in that order), and to a token: refreshed when it can be, else by the authorization code grant
// with PKCE S256 and the `resource` parameter (RFC 8707), the redirect checked for `state` and `iss`
// (RFC 9207), by client credentials for a machine, or by cross-app access (an enterprise IdP's ID-JAG,
// cross-app-access.ts). The client authenticates at the token endpoint with a secret, or with an
// assertion signed by its own key (private_key_jwt, client-authentication.ts). A 403 insufficient_scope asks again with the scope
// the server named (step-up). One refresh is shared by every request that needs it at once.

import type { JsonWebKey } from 'node:crypto';
import { parseBearerChallenge, parseChallenge } from './challenge.js';
import { type ClientKey, readClientKey } from './client-authentication.js';
import {
  type CrossAppAccess,
  crossAppAccessFromStored,
  JWT_BEARER_GRANT,
  requestIdJag,
  storedCrossAppAccess,
} from './cross-app-access.js';
import { createDpopKey, DPOP_ALGORITHM, dpopProof } from './dpop.js';
import { AuthorizationError, LoginRequiredError, TokenRefusedError } from './errors.js';
import {
  type AuthorizationServerMetadata,
  discoverIssuerMetadata,
  discoverLegacyMetadata,
  fetchJson,
  MetadataError,
} from './metadata.js';
import { createPkce, randomState } from './pkce.js';
import { postTokenRequest } from './token-request.js';
import {
  type AuthRecord,
  InMemoryTokenStore,
  type StoredClient,
  type StoredTokens,
  type TokenStore,
} from './token-store.js';
import { type WorkloadIdentity, workloadAssertion, workloadIdentityFromFile } from './workload-identity.js';

/** What the HTTP transport asks of whatever authorizes its requests. */
export interface HttpAuthorization {
  /** The Authorization header value for the next request (a token refreshed first when about to expire). */
  authorization(): string | undefined | Promise<string | undefined>;
  /** A request was refused (401 or 403): resolves true when it should be sent again with a new header. */
  refused(refusal: AuthRefusal): Promise<boolean>;
  /**
   * The DPoP header of a request that carries the token (RFC 9449): undefined at once when the token is not
   * DPoP-bound, so that a Bearer request is not put off.
   */
  proof?(method: string, url: string): Promise<string> | undefined;
}

export interface AuthRefusal {
  status: number;
  wwwAuthenticate: string | null;
  /** The DPoP-Nonce header of the refusal, if any. */
  dpopNonce?: string | null;
}

export { AuthorizationError, LoginRequiredError };

export interface OAuthClientOptions {
  /** The MCP server's URL: its canonical URI is the `resource` of every request (RFC 8707). */
  server: string | URL;
  /** Where credentials are kept (in memory unless given). */
  store?: TokenStore;
  /**
   * 'authorization_code' (a person logs in) or 'client_credentials' (a machine). Left out: what the stored
   * client was registered for, else authorization_code.
   */
  grant?: 'authorization_code' | 'client_credentials';
  /** A client registered beforehand at the authorization server. */
  clientId?: string;
  clientSecret?: string;
  /** client_secret_basic (default with a secret), client_secret_post, private_key_jwt (default with a clientKey), or none. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
  /**
   * The client's own signing key: it authenticates at the token endpoint with an assertion signed by it
   * (private_key_jwt, RFC 7523), whether pre-registered, by metadata document or dynamically registered
   * (with its public key). Kept in the token store like a client secret.
   */
  clientKey?: ClientKey;
  /**
   * Enterprise-managed authorization (cross-app access, SEP-990): tokens are got from an ID-JAG that the
   * enterprise's identity provider issues for the person's ID token, with no browser.
   */
  crossAppAccess?: CrossAppAccess;
  /**
   * Workload identity federation (SEP-1933): tokens are got with a JWT the workload's platform issued to it,
   * presented as a jwt-bearer grant, with no client registration.
   */
  workloadIdentity?: WorkloadIdentity;
  /**
   * Asks for DPoP-bound tokens (RFC 9449, SEP-1932) where the authorization server offers them (its
   * dpop_signing_alg_values_supported lists ES256): true by default.
   */
  dpop?: boolean;
  /** An https URL whose document describes this client (Client ID Metadata Document), used when the authorization server supports it. */
  clientMetadataUrl?: string;
  /** The name dynamic registration gives (mcpwire). */
  clientName?: string;
  /** The redirect URI of the authorization code grant (a loopback URL for a command-line client). */
  redirectUri?: string;
  /**
   * Shows the authorization URL to the person (opens a browser) and resolves with the URL the browser was
   * sent back to. Without it, a login that needs a person fails with LoginRequiredError.
   */
  authorize?: (authorizationUrl: URL) => Promise<URL | string>;
  /** The scope to ask for; by default what the server's challenge or metadata names. */
  scope?: string;
  /** Steps up (403 insufficient_scope) at most this many times in a row before giving up (2). */
  maxStepUps?: number;
  /** Seconds before its expiry that an access token is refreshed (30). */
  refreshSkew?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

interface Discovered {
  issuer: string;
  metadata: AuthorizationServerMetadata;
  scopesSupported: string[] | undefined;
  /** The `resource` of the protected resource metadata, sent as the `resource` parameter exactly as published. */
  indicator?: string;
  /** Found the 2025-03-26 way (no protected resource metadata): why, for the messages of what fails next. */
  legacy?: string;
}

export class OAuthClient implements HttpAuthorization {
  readonly resource: string;
  private readonly store: TokenStore;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private record: AuthRecord | undefined;
  private loaded: Promise<void> | undefined;
  private refreshing: Promise<boolean> | undefined;
  private recovering: Promise<boolean> | undefined;
  private discovered: Discovered | undefined;
  private stepUps = 0;
  /** The header of the token the last refresh on a 401 gave (see moved()). */
  private refreshedHeader: string | undefined;
  /** DPoP nonces the authorization server and the resource server last gave. */
  private asNonce: string | undefined;
  private rsNonce: string | undefined;

  constructor(readonly options: OAuthClientOptions) {
    this.resource = canonicalResource(options.server);
    this.store = options.store ?? new InMemoryTokenStore();
    this.fetch = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
  }

  /** The header for the next request: the stored token, refreshed first when it is about to expire. */
  authorization(): string | undefined | Promise<string | undefined> {
    if (!this.loaded) {
      this.loaded = this.store.load(this.resource).then((record) => {
        this.record = record;
      });
      return this.loaded.then(() => this.authorization());
    }
    const tokens = this.record?.tokens;
    if (!tokens) return undefined;
    const skew = (this.options.refreshSkew ?? 30) * 1000;
    if (tokens.expires_at !== undefined && tokens.expires_at - skew <= this.now() && tokens.refresh_token) {
      return this.refresh().then(() => this.header());
    }
    return this.header();
  }

  private header(): string | undefined {
    const tokens = this.record?.tokens;
    if (!tokens?.access_token) return undefined;
    return `${this.boundToKey() ? 'DPoP' : 'Bearer'} ${tokens.access_token}`;
  }

  /** Whether the token is DPoP-bound (the server said so, and the key is here). */
  private boundToKey(): boolean {
    return this.record?.tokens?.token_type?.toLowerCase() === 'dpop' && this.record.dpop_jwk !== undefined;
  }

  /** The DPoP proof of a resource request, for a DPoP-bound token; undefined for a Bearer one. */
  proof(method: string, url: string): Promise<string> | undefined {
    const record = this.record;
    if (!record?.dpop_jwk || !record.tokens || !this.boundToKey()) return undefined;
    return dpopProof(
      record.dpop_jwk,
      {
        method,
        url,
        accessToken: record.tokens.access_token,
        ...(this.rsNonce ? { nonce: this.rsNonce } : {}),
      },
      this.now(),
    );
  }

  /**
   * What to do about a refused request. Concurrent refusals share one recovery, so that ten requests
   * refused at once cause one refresh or one login, not ten.
   */
  refused(refusal: AuthRefusal): Promise<boolean> {
    const sent = this.header();
    this.recovering ??= this.recover(refusal, sent).finally(() => {
      this.recovering = undefined;
    });
    return this.recovering;
  }

  private async recover(refusal: AuthRefusal, sent: string | undefined): Promise<boolean> {
    await this.authorization();
    // Another request's recovery already replaced the token this one was sent with: try again with it.
    if (sent !== undefined && this.header() !== sent) return true;
    const challenge =
      parseBearerChallenge(refusal.wwwAuthenticate) ?? parseChallenge(refusal.wwwAuthenticate, 'DPoP') ?? {};
    // RFC 9449 §9: the resource server wants its nonce in the proof; the same token is sent again with it.
    if (challenge.error === 'use_dpop_nonce' && refusal.dpopNonce && refusal.dpopNonce !== this.rsNonce) {
      this.rsNonce = refusal.dpopNonce;
      return true;
    }
    if (refusal.status === 403) {
      if (challenge.error !== 'insufficient_scope') return false;
      if (++this.stepUps > (this.options.maxStepUps ?? 2)) {
        throw new AuthorizationError(
          `${this.resource} still refuses for want of scope after ${this.stepUps - 1} step-ups (it asked for "${challenge.scope ?? ''}")`,
        );
      }
      await this.obtain(challenge, mergeScopes(this.record?.tokens?.scope, challenge.scope));
      return true;
    }
    if (refusal.status !== 401) return false;
    this.stepUps = 0;
    // A token that was sent and refused is worth a refresh first; with no token, go straight to a grant.
    if (sent !== undefined && this.record?.tokens?.refresh_token && !(await this.moved(sent, challenge))) {
      if (await this.refresh()) {
        this.refreshedHeader = this.header();
        return true;
      }
    }
    await this.obtain(challenge, this.options.scope ?? challenge.scope);
    return true;
  }

  /**
   * Whether the server trusts another authorization server than the one that issued our tokens. Asked
   * only of a token that a refresh on a 401 gave and that is refused all the same: refreshing it again
   * at the old authorization server would give another token the server refuses. Discovery failing
   * here is not taken as a move.
   */
  private async moved(sent: string, challenge: Record<string, string>): Promise<boolean> {
    if (sent !== this.refreshedHeader || !this.record) return false;
    try {
      return (await this.discover(challenge.resource_metadata)).issuer !== this.record.issuer;
    } catch {
      return false;
    }
  }

  /** Refreshes the access token; false when that is not possible (no refresh token, refused). */
  private refresh(): Promise<boolean> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async doRefresh(): Promise<boolean> {
    const record = this.record;
    const refreshToken = record?.tokens?.refresh_token;
    if (!record?.client || !refreshToken) return false;
    let metadata: AuthorizationServerMetadata;
    try {
      metadata = (await this.discoverIssuer(record.issuer)).metadata;
    } catch {
      return false;
    }
    let answer: StoredTokens;
    try {
      answer = await this.tokenRequest(metadata, record.client, record.dpop_jwk, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        resource: record.resource_indicator ?? this.resource,
      });
    } catch (error) {
      // Unreachable, or a 5xx: the refresh token may well still work, so it is kept for the next try.
      if (!(error instanceof TokenRefusedError)) throw error;
      // A refresh token that the server refuses is dropped: the next step is a new grant.
      delete record.tokens;
      await this.store.save(record);
      return false;
    }
    // A server that does not rotate refresh tokens sends none back: the old one stays good.
    answer.refresh_token ??= refreshToken;
    answer.scope ??= record.tokens?.scope;
    record.tokens = answer;
    await this.store.save(record);
    return true;
  }

  /** A new token by a grant: discovery, registration, then the grant itself. */
  private async obtain(challenge: Record<string, string>, requested: string | undefined): Promise<void> {
    const found = await this.discover(challenge.resource_metadata);
    const { issuer, metadata } = found;
    let record = this.record;
    if (!record || record.issuer !== issuer) {
      // Credentials belong to the authorization server that issued them: another one gets what is kept
      // from it (its registration of this client), or starts afresh. Checked again here, for a store
      // that ignores the issuer.
      const kept = await this.store.load(this.resource, issuer);
      record =
        kept?.issuer === issuer && kept.resource === this.resource
          ? kept
          : { resource: this.resource, issuer };
    }
    // RFC 8707 by RFC 9728: the resource identifier as the server publishes it, character for character
    // (a URL parser would add a "/" to one without a path).
    if (found.indicator && found.indicator !== this.resource) record.resource_indicator = found.indicator;
    else delete record.resource_indicator;
    const resource = found.indicator ?? this.resource;
    const scope = requested ?? found.scopesSupported?.join(' ');
    const withOffline =
      scope && metadata.scopes_supported?.includes('offline_access') && !/\boffline_access\b/.test(scope)
        ? `${scope} offline_access`
        : scope;
    // A stored client made for another grant, or other than the one the options name, is replaced.
    if (record.client && !this.fits(record.client)) delete record.client;
    // A workload or cross-app client kept in the store (a later command's) reads its JWT or ID token from
    // the same file again.
    const stored = record.client;
    const crossApp =
      this.options.crossAppAccess ??
      (!this.options.workloadIdentity && stored?.grant === 'cross_app_access' && stored.cross_app
        ? crossAppAccessFromStored(stored.cross_app)
        : undefined);
    const workload =
      this.options.workloadIdentity ??
      (!crossApp && stored?.grant === 'workload_identity' && stored.workload_token_file
        ? workloadIdentityFromFile(stored.workload_token_file, stored.client_id || undefined)
        : undefined);
    const grant =
      crossApp || workload
        ? JWT_BEARER_GRANT
        : (this.options.grant ?? record.client?.grant ?? 'authorization_code');
    const machine = grant === 'client_credentials';
    const person = grant === 'authorization_code';
    // Nobody to log in here: say so before registering a client that would never be used.
    if (person && !this.options.authorize) {
      throw new LoginRequiredError(this.resource, issuer, 'no stored token can be used');
    }
    // MCP: a client must refuse to go on when PKCE S256 support is not advertised (checked before a
    // client is registered for nothing).
    if (person && !metadata.code_challenge_methods_supported?.includes('S256')) {
      throw new AuthorizationError(
        `the authorization server ${issuer} does not advertise PKCE S256 (code_challenge_methods_supported), which MCP requires`,
      );
    }
    // DPoP where the authorization server offers it: the key is made once and kept with the tokens.
    if (this.options.dpop !== false && metadata.dpop_signing_alg_values_supported?.includes(DPOP_ALGORITHM)) {
      record.dpop_jwk ??= createDpopKey();
    } else {
      delete record.dpop_jwk;
    }
    try {
      // A workload is known by its JWT alone: it registers nowhere.
      record.client ??= workload
        ? {
            client_id: workload.clientId ?? '',
            token_endpoint_auth_method: 'none',
            ...(workload.file ? { grant: 'workload_identity', workload_token_file: workload.file } : {}),
          }
        : await this.register(metadata, grant);
      if (workload) {
        const assertion = await workloadAssertion(workload);
        if (!assertion) {
          throw new AuthorizationError('workload identity federation needs the workload JWT, and got none');
        }
        record.tokens = await this.tokenRequest(metadata, record.client, record.dpop_jwk, {
          grant_type: JWT_BEARER_GRANT,
          assertion,
          resource,
          ...(scope ? { scope } : {}),
        });
      } else if (machine) {
        record.tokens = await this.tokenRequest(metadata, record.client, record.dpop_jwk, {
          grant_type: 'client_credentials',
          resource,
          ...(scope ? { scope } : {}),
        });
      } else if (crossApp) {
        const kept = storedCrossAppAccess(crossApp);
        if (kept) {
          record.client.grant = 'cross_app_access';
          record.client.cross_app = kept;
        }
        const assertion = await requestIdJag(crossApp, {
          issuer,
          resource,
          scope,
          fetch: this.fetch,
          now: this.now(),
        });
        record.tokens = await this.tokenRequest(metadata, record.client, record.dpop_jwk, {
          grant_type: JWT_BEARER_GRANT,
          assertion,
          resource,
          ...(scope ? { scope } : {}),
        });
      } else {
        record.tokens = await this.authorizationCode(issuer, metadata, record.client, record.dpop_jwk, {
          scope: withOffline,
          resource,
        });
      }
    } catch (error) {
      // A failure at endpoints that were found the 2025-03-26 way says how they were found.
      if (found.legacy && error instanceof AuthorizationError) {
        throw new AuthorizationError(`${error.message} (${found.legacy})`, { cause: error });
      }
      throw error;
    }
    this.record = record;
    await this.store.save(record);
  }

  private async authorizationCode(
    issuer: string,
    metadata: AuthorizationServerMetadata,
    client: StoredClient,
    dpopKey: JsonWebKey | undefined,
    { scope, resource }: { scope: string | undefined; resource: string },
  ): Promise<StoredTokens> {
    if (!metadata.authorization_endpoint) {
      throw new AuthorizationError(`the authorization server ${issuer} names no authorization_endpoint`);
    }
    // This login's redirect URI first: a command-line client listens on a new loopback port each time.
    const redirectUri = this.options.redirectUri ?? client.redirect_uri;
    if (!redirectUri) throw new AuthorizationError('the authorization code grant needs a redirectUri');
    if (!this.options.authorize) {
      throw new LoginRequiredError(this.resource, issuer, 'no stored token can be used');
    }
    const pkce = createPkce();
    const state = randomState();
    const url = new URL(metadata.authorization_endpoint);
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: pkce.challenge,
      code_challenge_method: pkce.method,
      state,
      resource,
    };
    if (scope) params.scope = scope;
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    const back = new URL(String(await this.options.authorize(url)));
    const answer = back.searchParams;
    if (answer.get('state') !== state) {
      throw new AuthorizationError(
        'the authorization redirect does not carry the state this login sent; it is refused',
      );
    }
    // RFC 9207: a present `iss` must be the issuer, exactly; one that the server promises must be present.
    const iss = answer.get('iss');
    if (iss !== null && iss !== issuer) {
      throw new AuthorizationError(
        `the authorization redirect names issuer "${iss}", not "${issuer}"; it is refused`,
      );
    }
    if (iss === null && metadata.authorization_response_iss_parameter_supported === true) {
      throw new AuthorizationError(
        `the authorization redirect lacks the iss parameter that ${issuer} promises; it is refused`,
      );
    }
    const error = answer.get('error');
    if (error) {
      const description = answer.get('error_description');
      throw new AuthorizationError(
        `the authorization server refused: ${error}${description ? ` (${description})` : ''}`,
      );
    }
    const code = answer.get('code');
    if (!code) throw new AuthorizationError('the authorization redirect carries no code');
    return this.tokenRequest(metadata, client, dpopKey, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: pkce.verifier,
      resource,
    });
  }

  /** Whether a stored client is the one these options mean, for the grant they name. */
  private fits(client: StoredClient): boolean {
    const { options } = this;
    if (options.clientId !== undefined || options.workloadIdentity) return false; // rebuilt from the options
    if (options.clientKey && client.token_endpoint_auth_method !== 'private_key_jwt') return false;
    // A stored workload client serves only a client whose options name no grant (a later command).
    if (client.grant === 'workload_identity') return options.grant === undefined && !options.crossAppAccess;
    if (client.grant === 'cross_app_access') return options.grant === undefined || !!options.crossAppAccess;
    if (options.grant === undefined || options.crossAppAccess) return true;
    return (options.grant === 'client_credentials') === (client.grant === 'client_credentials');
  }

  /** A client id: pre-registered, a metadata document URL, or dynamically registered, in that order. */
  private async register(metadata: AuthorizationServerMetadata, grant: string): Promise<StoredClient> {
    const { options } = this;
    const key = options.clientKey
      ? readClientKey(options.clientKey, metadata.token_endpoint_auth_signing_alg_values_supported)
      : undefined;
    const withKey = (client: StoredClient): StoredClient => {
      if (grant === 'client_credentials') client.grant = 'client_credentials';
      if (!key || client.token_endpoint_auth_method !== 'private_key_jwt') return client;
      client.private_key_jwk = key.privateJwk;
      client.signing_alg = key.algorithm;
      if (key.keyId) client.key_id = key.keyId;
      return client;
    };
    if (options.clientId) {
      return withKey({
        client_id: options.clientId,
        client_secret: options.clientSecret,
        token_endpoint_auth_method:
          options.tokenEndpointAuthMethod ??
          (key ? 'private_key_jwt' : options.clientSecret ? chooseSecretMethod(metadata) : 'none'),
        redirect_uri: options.redirectUri,
      });
    }
    if (options.clientMetadataUrl && metadata.client_id_metadata_document_supported === true) {
      // The document names the public key (jwks or jwks_uri) when the client signs its assertions.
      return withKey({
        client_id: options.clientMetadataUrl,
        token_endpoint_auth_method: key ? 'private_key_jwt' : 'none',
        redirect_uri: options.redirectUri,
      });
    }
    if (!metadata.registration_endpoint) {
      throw new AuthorizationError(
        `the authorization server ${metadata.issuer} offers no way to register this client (no client metadata document support, no registration_endpoint); pass a pre-registered client id`,
      );
    }
    const person = grant === 'authorization_code';
    const request: Record<string, unknown> = {
      client_name: options.clientName ?? 'mcpwire',
      application_type: person ? 'native' : 'web',
      grant_types: person ? ['authorization_code', 'refresh_token'] : [grant],
      response_types: person ? ['code'] : [],
      redirect_uris: !person || !options.redirectUri ? [] : [options.redirectUri],
      token_endpoint_auth_method: key ? 'private_key_jwt' : person ? 'none' : 'client_secret_basic',
    };
    if (key) request.jwks = { keys: [key.publicJwk] };
    const response = await this.fetch(metadata.registration_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(request),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok || typeof body.client_id !== 'string') {
      throw new AuthorizationError(
        `registration at ${metadata.registration_endpoint} failed (HTTP ${response.status}${typeof body.error === 'string' ? `: ${body.error}` : ''})`,
      );
    }
    return withKey({
      client_id: body.client_id,
      client_secret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
      token_endpoint_auth_method:
        typeof body.token_endpoint_auth_method === 'string'
          ? body.token_endpoint_auth_method
          : String(request.token_endpoint_auth_method),
      redirect_uri: options.redirectUri,
    });
  }

  private async tokenRequest(
    metadata: AuthorizationServerMetadata,
    client: StoredClient,
    dpopKey: JsonWebKey | undefined,
    params: Record<string, string>,
  ): Promise<StoredTokens> {
    const endpoint = metadata.token_endpoint;
    if (!endpoint) throw new AuthorizationError(`${metadata.issuer} names no token_endpoint`);
    const answer = await postTokenRequest({
      endpoint,
      issuer: metadata.issuer,
      client,
      params,
      fetch: this.fetch,
      now: this.now(),
      ...(dpopKey
        ? {
            dpop: {
              proof: (nonce: string | undefined) =>
                dpopProof(
                  dpopKey,
                  { method: 'POST', url: endpoint, ...(nonce ? { nonce } : {}) },
                  this.now(),
                ),
              ...(this.asNonce ? { nonce: this.asNonce } : {}),
              sawNonce: (nonce: string) => {
                this.asNonce = nonce;
              },
            },
          }
        : {}),
    });
    const tokens: StoredTokens = { access_token: answer.access_token };
    if (typeof answer.token_type === 'string') tokens.token_type = answer.token_type;
    if (typeof answer.refresh_token === 'string') tokens.refresh_token = answer.refresh_token;
    if (typeof answer.expires_in === 'number') tokens.expires_at = this.now() + answer.expires_in * 1000;
    if (typeof answer.scope === 'string') tokens.scope = answer.scope;
    else if (params.scope) tokens.scope = params.scope;
    return tokens;
  }

  /**
   * The protected resource's metadata, then its authorization server's. A server that announces none and
   * publishes none at the well-known URIs is taken for a 2025-03-26 one, whose own origin is its
   * authorization server.
   */
  private async discover(announced: string | undefined): Promise<Discovered> {
    if (this.discovered && !announced) return this.discovered;
    const resourceMetadata = await this.resourceMetadata(announced);
    if (typeof resourceMetadata === 'string') return this.discoverLegacy(resourceMetadata);
    const servers = resourceMetadata.authorization_servers;
    if (!Array.isArray(servers) || typeof servers[0] !== 'string') {
      throw new AuthorizationError(
        `the protected resource metadata of ${this.resource} lists no authorization_servers`,
      );
    }
    const found = await this.discoverIssuer(servers[0]);
    const supported = resourceMetadata.scopes_supported;
    found.scopesSupported = Array.isArray(supported)
      ? supported.filter((s): s is string => typeof s === 'string')
      : undefined;
    found.indicator = resourceMetadata.resource as string;
    this.discovered = found;
    return found;
  }

  /** MCP 2025-03-26 discovery, for a server without protected resource metadata (`tried`: the URIs tried). */
  private async discoverLegacy(tried: string): Promise<Discovered> {
    let found: Awaited<ReturnType<typeof discoverLegacyMetadata>>;
    try {
      found = await discoverLegacyMetadata(this.resource, this.fetch);
    } catch (error) {
      if (error instanceof MetadataError) throw new AuthorizationError(error.message, { cause: error });
      throw error;
    }
    const why = `${this.resource} publishes no protected resource metadata (tried ${tried})`;
    this.discovered = {
      issuer: found.metadata.issuer,
      metadata: found.metadata,
      scopesSupported: undefined,
      legacy: found.defaults
        ? `${why} and no authorization server metadata at ${found.tried}, so the 2025-03-26 default endpoints were used`
        : `${why}, so the 2025-03-26 metadata at ${found.tried} was used`,
    };
    return this.discovered;
  }

  private async discoverIssuer(issuer: string): Promise<Discovered> {
    if (this.discovered?.issuer === issuer) return this.discovered;
    try {
      return {
        issuer,
        metadata: await discoverIssuerMetadata(issuer, this.fetch),
        scopesSupported: undefined,
      };
    } catch (error) {
      if (error instanceof MetadataError) throw new AuthorizationError(error.message, { cause: error });
      throw error;
    }
  }

  /**
   * RFC 9728: the URL the challenge names (on the server's own origin), else the well-known URIs in order.
   * None at the well-known URIs (and none announced) gives the list of URIs tried instead.
   */
  private async resourceMetadata(announced: string | undefined): Promise<Record<string, unknown> | string> {
    const server = new URL(this.resource);
    const candidates: URL[] = [];
    if (announced) {
      let url: URL;
      try {
        url = new URL(announced);
      } catch {
        throw new AuthorizationError(
          `the server announced resource metadata at "${announced}", which is no URL`,
        );
      }
      if (url.origin !== server.origin) {
        throw new AuthorizationError(
          `the server announced resource metadata on another origin (${url.origin}, not ${server.origin}); it is not followed`,
        );
      }
      candidates.push(url);
    } else {
      const path = server.pathname === '/' ? '' : server.pathname;
      if (path) candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, server.origin));
      candidates.push(new URL('/.well-known/oauth-protected-resource', server.origin));
    }
    for (const url of candidates) {
      let document: unknown;
      try {
        document = await fetchJson(url, this.fetch);
      } catch (error) {
        throw new AuthorizationError((error as Error).message, { cause: error });
      }
      if (document === undefined) continue;
      const metadata = document as Record<string, unknown>;
      if (typeof metadata.resource !== 'string' || !resourceCovers(metadata.resource, this.resource)) {
        throw new AuthorizationError(
          `the protected resource metadata at ${url.href} is for "${String(metadata.resource)}", not ${this.resource}; it is not used`,
        );
      }
      return metadata;
    }
    const tried = candidates.map((u) => u.href).join(', ');
    if (!announced) return tried;
    throw new AuthorizationError(
      `${this.resource} needs authorization but publishes no protected resource metadata (tried ${tried})`,
    );
  }

  /**
   * Forgets the stored tokens (keeping the client's registration), so that the next refused request
   * logs in afresh: what `mcpwire login` does before connecting.
   */
  async forgetTokens(): Promise<void> {
    await this.authorization();
    if (this.record) {
      delete this.record.tokens;
      await this.store.save(this.record);
    }
  }

  /** Forgets this server's tokens (and its registration), from every authorization server, locally. */
  async logout(): Promise<void> {
    this.record = undefined;
    this.loaded = Promise.resolve();
    await this.store.delete(this.resource);
  }

  /** The stored record, for showing what is known (never print its tokens). */
  async stored(): Promise<AuthRecord | undefined> {
    await this.authorization();
    return this.record;
  }
}

/** The canonical URI of an MCP server (MCP authorization, "Canonical Server URI"): no fragment, lower-case scheme and host. */
export function canonicalResource(server: string | URL): string {
  const url = new URL(server);
  url.hash = '';
  return url.href;
}

/** Whether metadata for `declared` may serve `resource`: the same URI, or a parent path on the same origin. */
function resourceCovers(declared: string, resource: string): boolean {
  let a: URL;
  try {
    a = new URL(declared);
  } catch {
    return false;
  }
  const b = new URL(resource);
  if (a.origin !== b.origin) return false;
  const parent = a.pathname.endsWith('/') ? a.pathname : `${a.pathname}/`;
  return a.pathname === b.pathname || b.pathname.startsWith(parent) || a.pathname === '/';
}

function mergeScopes(a: string | undefined, b: string | undefined): string | undefined {
  const all = new Set([...(a ?? '').split(' '), ...(b ?? '').split(' ')].filter(Boolean));
  return all.size > 0 ? [...all].join(' ') : undefined;
}

function chooseSecretMethod(metadata: AuthorizationServerMetadata): string {
  const methods = metadata.token_endpoint_auth_methods_supported;
  if (!methods || methods.includes('client_secret_basic')) return 'client_secret_basic';
  if (methods.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}
