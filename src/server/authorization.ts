// Authorization for an MCP server over Streamable HTTP, in MCP's terms: who issues tokens, what this
// server is called (the audience tokens must name), and which scopes its methods and tools need. Turned
// into the transport's ResourceServer, which checks every request; the verified caller then reaches
// every handler as `context.auth`.

import { type ScopeRequirements, scopesFor } from '../protocol/http/scopes.js';
import { jwtVerifier, multiIssuerVerifier } from '../transport/http/auth/jwt-verifier.js';
import { ResourceServer, type TokenVerifier } from '../transport/http/auth/resource-server.js';

export interface AuthorizationOptions extends ScopeRequirements {
  /** The authorization server(s) this server trusts, by issuer identifier. */
  issuer: string | readonly string[];
  /**
   * This server's canonical URI, the audience tokens must name (RFC 8707). By default the endpoint's own
   * URL, where the server knows it (listenHttp, `serve --http`).
   */
  resource?: string;
  /**
   * How tokens are checked: by default JWT access tokens against their issuer's published keys;
   * introspectionVerifier() for opaque tokens, or a function of your own.
   */
  verifier?: TokenVerifier;
  /** Scopes listed in the metadata and offered in challenges (by default every scope named below). */
  scopesSupported?: readonly string[];
  /** Scopes every request needs. */
  requiredScopes?: readonly string[];
  resourceName?: string;
  resourceDocumentation?: string;
}

/** The resource server for `options`, serving `resource` (the endpoint's URL unless the options name one). */
export function resourceServer(options: AuthorizationOptions, endpointUrl?: string): ResourceServer {
  const resource = options.resource ?? endpointUrl;
  if (!resource) throw new TypeError('authorization needs the resource URI this server is known by');
  const issuers = typeof options.issuer === 'string' ? [options.issuer] : [...options.issuer];
  const named = new Set([
    ...(options.requiredScopes ?? []),
    ...Object.values(options.methods ?? {}).flat(),
    ...Object.values(options.tools ?? {}).flat(),
  ]);
  return new ResourceServer({
    resource,
    authorizationServers: issuers,
    verifier:
      options.verifier ??
      (issuers.length === 1
        ? jwtVerifier({ issuer: issuers[0]!, audience: resource })
        : multiIssuerVerifier(
            new Map(issuers.map((issuer) => [issuer, jwtVerifier({ issuer, audience: resource })])),
          )),
    scopesSupported: options.scopesSupported ?? (named.size > 0 ? [...named] : undefined),
    requiredScopes: options.requiredScopes,
    scopesFor: options.methods || options.tools ? scopesFor(options) : undefined,
    resourceName: options.resourceName,
    resourceDocumentation: options.resourceDocumentation,
  });
}
