// An MCP server as an OAuth 2.1 resource server (MCP basic/authorization; RFC 6750, RFC 9728, RFC 8707).
// Every request to the endpoint must carry `Authorization: Bearer <token>`; the token is checked by a
// TokenVerifier (a JWT against the issuer's keys, or introspection) and must be meant for this resource.
// A request without one gets 401 with a challenge that names the protected resource metadata, where a
// client finds the authorization server; a token without the scope an operation needs gets 403
// insufficient_scope naming it, so that the client can ask for more (step-up). A DPoP-bound token (RFC
// 9449: `cnf.jkt` in its claims) is accepted only as `Authorization: DPoP <token>` with a proof of the key
// it is bound to (dpop-verifier.ts), never as a bearer token, so that one that leaks is of no use. This
// file knows HTTP and OAuth, not MCP's methods: which scope a message needs is the caller's to say
// (`scopesFor`).

import type { AuthInfo } from '../../../jsonrpc/transport.js';
import { type ChallengeParams, formatChallenge } from './challenge.js';
import { DPOP_PROOF_ALGORITHMS, DpopProofChecker, InvalidDpopProofError } from './dpop-verifier.js';

/** A token that must not be accepted: expired, for another resource, badly signed, unknown... */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/** Checks a bearer token and says who it stands for; throws InvalidTokenError for a token to refuse. */
export type TokenVerifier = (token: string) => Promise<AuthInfo>;

export interface ResourceServerOptions {
  /**
   * This server's canonical URI (RFC 8707 §2, MCP's "canonical server URI"): what tokens must name as
   * their audience, and the `resource` of the metadata. For example https://mcp.example.com/mcp.
   */
  resource: string;
  /** The issuers of the authorization servers this resource trusts, listed in the metadata. */
  authorizationServers: readonly string[];
  verifier: TokenVerifier;
  /** Scopes this resource understands, listed in the metadata and offered in challenges. */
  scopesSupported?: readonly string[];
  /** Scopes every request needs. */
  requiredScopes?: readonly string[];
  /**
   * Scopes one POST body needs beyond `requiredScopes` (per method or per tool), computed by the
   * protocol's binding.
   */
  scopesFor?: (body: unknown) => readonly string[];
  /** A human-readable name for the metadata (`resource_name`). */
  resourceName?: string;
  /** Where a person can read about this resource (`resource_documentation`). */
  resourceDocumentation?: string;
}

/** What a request's credentials come to: its caller, or the answer that refuses it. */
export type AuthVerdict = { auth: AuthInfo } | { refusal: Refusal };

/** What of a request, besides its Authorization header, a DPoP presentation is checked against. */
export interface PresentedRequest {
  method: string;
  /** The URLs the request may have been sent to (see DpopProofChecker). */
  urls: readonly string[];
  /** The DPoP header: one value, or several (which is refused). */
  dpop: string | readonly string[] | undefined;
}

export interface Refusal {
  status: 400 | 401 | 403 | 503;
  /** The OAuth error code (RFC 6750 §3.1, RFC 9449 §7.1), or none when no credentials came at all. */
  error: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'invalid_dpop_proof' | undefined;
  description: string;
  headers: Record<string, string>;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const DPOP = /^DPoP +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The resource server: authenticates requests, checks scopes, and serves its own metadata. */
export class ResourceServer {
  /** Where the metadata is served: the well-known prefix inserted before the resource's path (RFC 9728 §3.1). */
  readonly metadataPath: string;
  readonly metadataUrl: string;
  private readonly required: readonly string[];
  private readonly proofs = new DpopProofChecker();

  constructor(readonly options: ResourceServerOptions) {
    const resource = new URL(options.resource);
    if (resource.hash) throw new TypeError(`the resource URI must have no fragment: ${options.resource}`);
    if (options.authorizationServers.length === 0) {
      throw new TypeError('authorization needs at least one authorization server to trust');
    }
    const path = resource.pathname === '/' ? '' : resource.pathname;
    this.metadataPath = `/.well-known/oauth-protected-resource${path}`;
    this.metadataUrl = `${resource.origin}${this.metadataPath}`;
    this.required = options.requiredScopes ?? [];
  }

  /** The Protected Resource Metadata document (RFC 9728 §2). */
  metadata(): Record<string, unknown> {
    const { options } = this;
    const document: Record<string, unknown> = {
      resource: options.resource,
      authorization_servers: [...options.authorizationServers],
      bearer_methods_supported: ['header'],
      dpop_signing_alg_values_supported: [...DPOP_PROOF_ALGORITHMS],
    };
    if (options.scopesSupported) document.scopes_supported = [...options.scopesSupported];
    if (options.resourceName) document.resource_name = options.resourceName;
    if (options.resourceDocumentation) document.resource_documentation = options.resourceDocumentation;
    return document;
  }

  /**
   * Checks the Authorization header of a request. Only the header carries a token: one in the query
   * string is never looked at (MCP forbids it), so such a request is refused as having none.
   */
  async authenticate(authorization: string | undefined, request?: PresentedRequest): Promise<AuthVerdict> {
    if (request && authorization && /^DPoP(\s|$)/i.test(authorization)) {
      return this.authenticateDpop(authorization, request);
    }
    if (authorization === undefined || authorization === '' || !/^Bearer(\s|$)/i.test(authorization)) {
      // No credentials, or another scheme: no error code (RFC 6750 §3.1), only where to go.
      return this.refuse(401, undefined, 'this server needs an OAuth access token (Authorization: Bearer)');
    }
    const match = BEARER.exec(authorization);
    if (!match) {
      return this.refuse(400, 'invalid_request', 'the Authorization header is not "Bearer <token>"');
    }
    return this.verify(match[1]!, undefined);
  }

  /** `Authorization: DPoP <token>` with its proof (RFC 9449 §7.1). */
  private async authenticateDpop(authorization: string, request: PresentedRequest): Promise<AuthVerdict> {
    const match = DPOP.exec(authorization);
    if (!match) {
      return this.refuse(
        400,
        'invalid_request',
        'the Authorization header is not "DPoP <token>"',
        undefined,
        'DPoP',
      );
    }
    const proof = request.dpop;
    if (typeof proof !== 'string' || proof === '') {
      const description = 'a DPoP token needs exactly one DPoP proof header';
      return this.refuse(401, 'invalid_dpop_proof', description, undefined, 'DPoP');
    }
    let thumbprint: string;
    try {
      thumbprint = await this.proofs.check(proof, { ...request, accessToken: match[1]! });
    } catch (error) {
      if (!(error instanceof InvalidDpopProofError)) throw error;
      return this.refuse(401, 'invalid_dpop_proof', error.message, undefined, 'DPoP');
    }
    return this.verify(match[1]!, thumbprint);
  }

  /** Verifies the token; `thumbprint` is the key a DPoP proof proved, undefined for a bearer presentation. */
  private async verify(token: string, thumbprint: string | undefined): Promise<AuthVerdict> {
    const scheme = thumbprint === undefined ? 'Bearer' : 'DPoP';
    try {
      const auth = await this.options.verifier(token);
      const bound = boundKey(auth);
      if (bound !== thumbprint) {
        const description =
          thumbprint === undefined
            ? 'the token is bound to a key (DPoP): present it as "DPoP <token>" with a proof'
            : bound === undefined
              ? 'the token is not bound to a key; present it as "Bearer <token>"'
              : 'the token is bound to another key than the one of the DPoP proof (cnf.jkt)';
        return this.refuse(401, 'invalid_token', description, undefined, scheme);
      }
      const missing = missingScopes(auth.scopes, this.required);
      if (missing.length > 0) return this.insufficient(auth.scopes, missing);
      return { auth };
    } catch (error) {
      if (error instanceof InvalidTokenError) {
        return this.refuse(401, 'invalid_token', error.message, undefined, scheme);
      }
      // The token may be fine: what checks it (the issuer's keys, its introspection endpoint) did not
      // answer. A 401 would send the client to log in again for nothing; 503 says to try again later.
      const description = `the token could not be checked now: ${(error as Error).message}`;
      return { refusal: { status: 503, error: undefined, description, headers: { 'Retry-After': '5' } } };
    }
  }

  /** The refusal for a body that needs scopes the caller's token lacks, or undefined when it has them. */
  checkScopes(auth: AuthInfo, body: unknown): Refusal | undefined {
    const needed = this.options.scopesFor?.(body) ?? [];
    if (needed.length === 0) return undefined;
    const missing = missingScopes(auth.scopes, needed);
    if (missing.length === 0) return undefined;
    return this.insufficient(auth.scopes, missing).refusal;
  }

  private insufficient(granted: readonly string[], missing: readonly string[]): { refusal: Refusal } {
    // The challenge names every scope the client should hold from now on: what it has and what it lacks,
    // so that re-authorizing with that list does not lose what already worked (MCP's step-up flow).
    const wanted = [...new Set([...granted, ...this.required, ...missing])];
    return this.refuse(403, 'insufficient_scope', `this needs the scope ${missing.join(' ')}`, wanted);
  }

  private refuse(
    status: Refusal['status'],
    error: Refusal['error'],
    description: string,
    scopes: readonly string[] = this.required.length > 0
      ? this.required
      : (this.options.scopesSupported ?? []),
    scheme: 'Bearer' | 'DPoP' = 'Bearer',
  ): { refusal: Refusal } {
    const params: ChallengeParams = {};
    if (error) params.error = error;
    params.error_description = description;
    params.resource_metadata = this.metadataUrl;
    if (scopes.length > 0) params.scope = scopes.join(' ');
    // A DPoP presentation is answered in its own scheme, naming the algorithms a proof may use.
    if (scheme === 'DPoP') params.algs = DPOP_PROOF_ALGORITHMS.join(' ');
    const challenge = formatChallenge(params, scheme);
    return { refusal: { status, error, description, headers: { 'WWW-Authenticate': challenge } } };
  }
}

/** The thumbprint of the key a token is bound to (`cnf.jkt`, RFC 9449 §6), if it is bound to one. */
function boundKey(auth: AuthInfo): string | undefined {
  const cnf = auth.claims.cnf;
  if (!cnf || typeof cnf !== 'object') return undefined;
  const jkt = (cnf as Record<string, unknown>).jkt;
  return typeof jkt === 'string' ? jkt : undefined;
}

/** The scopes of `needed` that `granted` lacks. */
export function missingScopes(granted: readonly string[], needed: readonly string[]): string[] {
  return needed.filter((scope) => !granted.includes(scope));
}

/** What a session is bound to: the caller that opened it may use it, nobody else. */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (!auth) return undefined;
  return JSON.stringify([auth.issuer ?? null, auth.subject ?? null, auth.clientId ?? null]);
}
