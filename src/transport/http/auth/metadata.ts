// Finding an authorization server's metadata from its issuer identifier, in the order MCP's
// authorization section gives (2025-11-25 and later): RFC 8414 with the well-known path inserted before
// the issuer's path, then OpenID Connect Discovery inserted, then appended; for an issuer without a path,
// RFC 8414 then OpenID. A document whose `issuer` is not exactly the one asked for is refused (RFC 8414
// §3.3): it would let one server speak for another.

export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  registration_endpoint?: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
  scopes_supported?: string[];
  code_challenge_methods_supported?: string[];
  grant_types_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  token_endpoint_auth_signing_alg_values_supported?: string[];
  dpop_signing_alg_values_supported?: string[];
  client_id_metadata_document_supported?: boolean;
  authorization_response_iss_parameter_supported?: boolean;
  [key: string]: unknown;
}

/** A metadata document that was found but cannot be used, or none found at all. */
export class MetadataError extends Error {
  override readonly name = 'MetadataError';
}

/** The URLs to try for an issuer's metadata, in order. */
export function metadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  const at = (p: string) => new URL(p, url.origin);
  if (path === '') {
    return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  }
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/**
 * The first metadata document found for `issuer`. A 4xx goes on to the next URL; a document for another
 * issuer, or an unreachable server, stops the search with a MetadataError.
 */
export async function discoverIssuerMetadata(
  issuer: string,
  fetcher: typeof fetch = fetch,
): Promise<AuthorizationServerMetadata> {
  const tried: string[] = [];
  for (const url of metadataUrls(issuer)) {
    tried.push(url.href);
    const response = await fetchJson(url, fetcher);
    if (response === undefined) continue;
    const document = response as AuthorizationServerMetadata;
    if (document.issuer !== issuer) {
      throw new MetadataError(
        `the metadata at ${url.href} is for issuer "${String(document.issuer)}", not "${issuer}"; it is not used`,
      );
    }
    return document;
  }
  throw new MetadataError(`no authorization server metadata for ${issuer} (tried ${tried.join(', ')})`);
}

/** GETs a JSON document: its value, undefined for a 4xx (try elsewhere), MetadataError otherwise. */
export async function fetchJson(url: URL, fetcher: typeof fetch = fetch): Promise<unknown> {
  let response: Response;
  try {
    response = await fetcher(url, { headers: { Accept: 'application/json' }, redirect: 'error' });
  } catch (error) {
    throw new MetadataError(`${url.href} could not be reached: ${(error as Error).message}`);
  }
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new MetadataError(`${url.href} answered HTTP ${response.status}`);
  }
  try {
    const value = (await response.json()) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value;
  } catch {
    throw new MetadataError(`${url.href} did not answer with a JSON object`);
  }
}

/** What the 2025-03-26 discovery found: the metadata, and whether it is the default endpoints (no document). */
export interface LegacyDiscovery {
  metadata: AuthorizationServerMetadata;
  defaults: boolean;
  /** The URL of the metadata document tried. */
  tried: string;
}

/**
 * Authorization server metadata as MCP 2025-03-26 found it, for a server that publishes no protected
 * resource metadata: the MCP server's origin is the authorization base URL, its RFC 8414 document is at
 * `/.well-known/oauth-authorization-server` there, and without one the endpoints are `/authorize`,
 * `/token` and `/register` on that origin. Everything stays on the MCP server's own origin: a document
 * there may name an issuer with a path (the revision built the URL from the origin alone), but an issuer
 * on another origin is refused. Default endpoints come with PKCE S256, which that revision requires of
 * every authorization server.
 */
export async function discoverLegacyMetadata(
  server: string,
  fetcher: typeof fetch = fetch,
): Promise<LegacyDiscovery> {
  const { origin } = new URL(server);
  const url = new URL('/.well-known/oauth-authorization-server', origin);
  const document = (await fetchJson(url, fetcher)) as AuthorizationServerMetadata | undefined;
  if (document !== undefined) {
    let issuerOrigin: string | undefined;
    try {
      issuerOrigin = new URL(String(document.issuer)).origin;
    } catch {
      issuerOrigin = undefined;
    }
    if (issuerOrigin !== origin) {
      throw new MetadataError(
        `the metadata at ${url.href} is for issuer "${String(document.issuer)}", which is not on ${origin}; it is not used`,
      );
    }
    return { metadata: document, defaults: false, tried: url.href };
  }
  return {
    metadata: {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      code_challenge_methods_supported: ['S256'],
    },
    defaults: true,
    tried: url.href,
  };
}
