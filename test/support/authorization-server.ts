// A real OAuth 2.1 authorization server for the authorization tests: oidc-provider on 127.0.0.1, with
// dynamic client registration (RFC 7591), resource indicators (RFC 8707) that make every access token a
// JWT whose `aud` is the MCP server's URI, PKCE S256, refresh tokens, client credentials, introspection
// and revocation. Its keys and everything it stores live in memory and die with close().
//
// completeLogin() plays the browser: it drives oidc-provider's development login and consent pages over
// plain HTTP and returns the redirect to the client's redirect_uri without following it.
//
// oidc-provider logs through console.info (stdout) and console.warn (stderr). Everything it would warn
// about has an option here except devInteractions, which warns once per instance on stderr.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, {
  type Adapter,
  type AdapterPayload,
  type ClientMetadata,
  type Configuration,
  errors,
} from 'oidc-provider';

export interface AuthorizationServerOptions {
  /** Scopes the MCP resources accept, besides openid and offline_access. */
  scopes?: string[];
  /** The resource indicators (RFC 8707) it issues tokens for; any absolute URI when left out. */
  resources?: string[];
  /** The resource an authorization request without `resource` gets; `resources[0]` when left out. */
  defaultResource?: string;
  /** Seconds (default 300): access tokens of both grants. */
  accessTokenTTL?: number;
  /** Seconds (default 3600). */
  refreshTokenTTL?: number;
  /**
   * Whether a used refresh token is replaced by a new one (using the old one again then fails and
   * revokes the grant). Left out: oidc-provider's policy, which rotates public clients' tokens always
   * and confidential clients' tokens only past 70% of their lifetime.
   */
  rotateRefreshTokens?: boolean;
  /** Serve `/.well-known/openid-configuration` (default true). */
  openidConfiguration?: boolean;
  /** Serve `/.well-known/oauth-authorization-server`, RFC 8414 (default true). */
  oauthAuthorizationServer?: boolean;
  /** Open dynamic client registration at the `registration_endpoint` (default true). */
  registration?: boolean;
  /** Clients known from the start, e.g. for a server without registration. */
  clients?: ClientMetadata[];
  /**
   * The scope an authorization request without `scope` gets (RFC 6749 §3.3 lets a server use a default).
   * Left out, such a request is refused with access_denied: oidc-provider grants no token without a scope.
   */
  defaultScope?: string;
  /** Offer DPoP (RFC 9449): a client that sends a proof gets tokens bound to its key (`cnf.jkt`). */
  dpop?: boolean;
}

/** A registration response (RFC 7591): the metadata as registered plus the credentials. */
export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
  registration_access_token?: string;
  registration_client_uri?: string;
  [field: string]: unknown;
}

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope?: string;
  refresh_token?: string;
  id_token?: string;
}

export interface LoginOptions {
  /** The login name, which becomes the access token's `sub` (default 'alice'). */
  account?: string;
  /** Approve at the consent page (default true); false cancels there, an `access_denied` redirect. */
  approve?: boolean;
}

export interface AuthorizationServer {
  /** `http://127.0.0.1:PORT`, without a trailing slash, as in the metadata and every token's `iss`. */
  readonly issuer: string;
  /** An absolute URL on the server, e.g. `url('/.well-known/oauth-authorization-server')`. */
  url(path: string): string;
  /** Registers a client by dynamic client registration. */
  registerClient(metadata: Record<string, unknown>): Promise<RegisteredClient>;
  /**
   * The user agent's part of an authorization request: signs in as `account`, consents (or cancels) and
   * returns the redirect to the client's redirect_uri (`code`, `state`, `iss` or `error`), not followed.
   */
  completeLogin(authorizeUrl: string | URL, options?: LoginOptions): Promise<URL>;
  /** A client credentials grant for a confidential client (client_secret_basic). */
  clientCredentialsToken(
    client: { client_id: string; client_secret?: string },
    params?: { resource?: string; scope?: string },
  ): Promise<TokenResponse>;
  /** Every request so far, as `METHOD /path` (no query): which endpoints a client used, in order. */
  requests(): readonly string[];
  close(): Promise<void>;
}

const OPENID_CONFIGURATION = '/.well-known/openid-configuration';
const OAUTH_METADATA = '/.well-known/oauth-authorization-server';
// oidc-provider's default routes, which the metadata names; the helpers below use them directly so that
// they work with the metadata turned off.
const REGISTRATION_ENDPOINT = '/reg';
const TOKEN_ENDPOINT = '/token';
const AUTHORIZATION_ENDPOINT = '/auth';

export async function startAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<AuthorizationServer> {
  const scopes = options.scopes ?? ['mcp:read', 'mcp:write', 'mcp:admin'];
  const accessTokenTTL = options.accessTokenTTL ?? 300;
  const refreshTokenTTL = options.refreshTokenTTL ?? 3600;
  const serveOpenid = options.openidConfiguration ?? true;
  const serveOauth = options.oauthAuthorizationServer ?? true;
  const log: string[] = [];

  // The issuer names the port, and the Provider takes the issuer: listen first, delegate to it after.
  let handle: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    log.push(`${request.method} ${path}`);
    if (path === OAUTH_METADATA && serveOauth) {
      // The same document: oidc-provider's metadata is a superset of RFC 8414's.
      request.url = OPENID_CONFIGURATION;
    } else if ((path === OAUTH_METADATA && !serveOauth) || (path === OPENID_CONFIGURATION && !serveOpenid)) {
      response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not_found"}');
      return;
    }
    if (path === AUTHORIZATION_ENDPOINT && options.defaultScope !== undefined) {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (!url.searchParams.has('scope')) {
        url.searchParams.set('scope', options.defaultScope);
        request.url = url.pathname + url.search;
      }
    }
    handle!(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'harness-rs256', use: 'sig', alg: 'RS256' };

  const accepts = (resource: string) => options.resources?.includes(resource) ?? true;
  const configuration: Configuration = {
    adapter: memoryAdapter(new Map()),
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    clients: options.clients ?? [],
    scopes: ['openid', 'offline_access', ...scopes],
    pkce: { methods: ['S256'], required: () => true },
    // A headless MCP client needs a refresh token without asking for offline_access, which oidc-provider
    // drops from a request unless it also says prompt=consent.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ...(options.rotateRefreshTokens !== undefined ? { rotateRefreshToken: options.rotateRefreshTokens } : {}),
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    clientBasedCORS: () => true,
    renderError: async (ctx, out) => {
      // Plain text, so that completeLogin can quote it in its error.
      ctx.type = 'text';
      ctx.body = Object.entries(out)
        .map(([key, value]) => `${key}: ${value}`)
        .join('\n');
    },
    // Every TTL is set: oidc-provider prints a notice to stdout for each default it uses.
    ttl: {
      AccessToken: accessTokenTTL,
      ClientCredentials: accessTokenTTL,
      AuthorizationCode: 60,
      IdToken: accessTokenTTL,
      RefreshToken: refreshTokenTTL,
      Grant: refreshTokenTTL,
      Session: refreshTokenTTL,
      Interaction: 600,
    },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: options.registration ?? true },
      clientCredentials: { enabled: true },
      dPoP: { enabled: options.dpop ?? false },
      revocation: { enabled: true },
      introspection: {
        enabled: true,
        // A client may introspect its own tokens; a confidential one (a resource server) any token.
        allowedPolicy: async (_ctx, client, token) =>
          client.clientAuthMethod !== 'none' || token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) =>
          oneOf ?? options.defaultResource ?? options.resources?.[0],
        getResourceServerInfo: async (_ctx, resource) => {
          if (!accepts(resource))
            throw new errors.InvalidTarget(`this server issues no tokens for ${resource}`);
          return {
            scope: scopes.join(' '),
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
        // A refresh or code exchange without `resource` still gets a token for the granted resource.
        useGrantedResource: async () => true,
      },
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = false;
  handle = provider.callback();

  const url = (path: string) => new URL(path, issuer).href;

  return {
    issuer,
    url,
    requests: () => [...log],
    async registerClient(clientMetadata) {
      const response = await fetch(url(REGISTRATION_ENDPOINT), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(clientMetadata),
      });
      const body = (await response.json()) as RegisteredClient;
      if (response.status !== 201)
        throw new Error(`registration failed: ${response.status} ${JSON.stringify(body)}`);
      return body;
    },
    async clientCredentialsToken(client, params = {}) {
      const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret ?? '')}`;
      const response = await fetch(url(TOKEN_ENDPOINT), {
        method: 'POST',
        headers: { Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          ...(params.resource !== undefined ? { resource: params.resource } : {}),
          ...(params.scope !== undefined ? { scope: params.scope } : {}),
        }),
      });
      const body = (await response.json()) as TokenResponse;
      if (response.status !== 200)
        throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
      return body;
    },
    completeLogin: (authorizeUrl, loginOptions) => completeLogin(issuer, authorizeUrl, loginOptions),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * oidc-provider's storage, one Map per server (its own in-memory adapter is one store for the whole
 * process, and warns). Expired entries read as absent.
 */
function memoryAdapter(store: Map<string, { payload: AdapterPayload; expiresAt: number }>) {
  const live = (key: string) => {
    const entry = store.get(key);
    if (entry && entry.expiresAt <= Date.now()) store.delete(key);
    return store.get(key)?.payload;
  };
  const findBy = (model: string, field: 'uid' | 'userCode', value: string) => {
    for (const key of store.keys()) {
      if (key.startsWith(`${model}:`) && live(key)?.[field] === value) return live(key);
    }
    return undefined;
  };
  return (model: string): Adapter => ({
    upsert: async (id, payload, expiresIn) => {
      store.set(`${model}:${id}`, { payload, expiresAt: Date.now() + expiresIn * 1000 });
    },
    find: async (id) => live(`${model}:${id}`),
    findByUid: async (uid) => findBy(model, 'uid', uid),
    findByUserCode: async (userCode) => findBy(model, 'userCode', userCode),
    consume: async (id) => {
      const payload = live(`${model}:${id}`);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    destroy: async (id) => {
      store.delete(`${model}:${id}`);
    },
    // Revoking a grant (refresh token reuse, a code used twice) revokes every token issued under it.
    revokeByGrantId: async (grantId) => {
      for (const [key, { payload }] of store) if (payload.grantId === grantId) store.delete(key);
    },
  });
}

/** The browser: a cookie jar, redirects followed by hand, and the two forms submitted. */
async function completeLogin(issuer: string, authorizeUrl: string | URL, options: LoginOptions = {}) {
  const account = options.account ?? 'alice';
  const approve = options.approve ?? true;
  const jar = new CookieJar();
  const origin = new URL(issuer).origin;

  let next: { url: URL; init?: RequestInit } = { url: new URL(authorizeUrl) };
  for (let step = 0; step < 20; step++) {
    const cookie = jar.header(next.url);
    const response = await fetch(next.url, {
      ...next.init,
      redirect: 'manual',
      headers: { ...(next.init?.headers as Record<string, string>), ...(cookie ? { Cookie: cookie } : {}) },
    });
    jar.store(next.url, response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const target = new URL(location, next.url);
      // Anywhere but the authorization server is the client's redirect_uri: the answer.
      if (target.origin !== origin) return target;
      next = { url: target };
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) {
      throw new Error(`completeLogin: ${response.status} from ${next.url.pathname}:\n${page}`);
    }
    const form = parseForm(page, next.url);
    if (!form) throw new Error(`completeLogin: no form on ${next.url.pathname}:\n${page.slice(0, 500)}`);
    const prompt = form.fields.get('prompt');
    if (prompt === 'login') {
      form.fields.set('login', account);
      form.fields.set('password', 'any');
    } else if (prompt === 'consent' && !approve) {
      const abort = parseAbortLink(page, next.url);
      if (!abort) throw new Error('completeLogin: the consent page offers no cancel link');
      next = { url: abort };
      continue;
    } else if (prompt !== 'consent') {
      throw new Error(
        `completeLogin: a page asking for ${prompt ?? 'nothing known'} at ${next.url.pathname}`,
      );
    }
    next = {
      url: form.action,
      init: {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams([...form.fields]).toString(),
      },
    };
  }
  throw new Error('completeLogin: no redirect to the client after 20 steps');
}

/** The first POST form on a page: its action and the values of its named inputs. */
function parseForm(html: string, base: URL): { action: URL; fields: Map<string, string> } | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const attributes = parseAttributes(form[1]!);
  if ((attributes.get('method') ?? 'get').toLowerCase() !== 'post') return undefined;
  const fields = new Map<string, string>();
  for (const input of form[2]!.matchAll(/<input\b([^>]*)>/gi)) {
    const inputAttributes = parseAttributes(input[1]!);
    const name = inputAttributes.get('name');
    if (name !== undefined) fields.set(name, inputAttributes.get('value') ?? '');
  }
  return { action: new URL(attributes.get('action') ?? base.href, base), fields };
}

function parseAbortLink(html: string, base: URL): URL | undefined {
  for (const link of html.matchAll(/<a\b([^>]*)>/gi)) {
    const href = parseAttributes(link[1]!).get('href');
    if (href && new URL(href, base).pathname.endsWith('/abort')) return new URL(href, base);
  }
  return undefined;
}

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(/([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+)))?/g)) {
    attributes.set(match[1]!.toLowerCase(), decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return attributes;
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, code: string) => {
    if (code[0] === '#') {
      const point =
        code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return String.fromCodePoint(point);
    }
    return named[code.toLowerCase()] ?? entity;
  });
}

/** Just enough of RFC 6265 for one host: cookies by name and path, dropped when expired. */
class CookieJar {
  readonly #cookies = new Map<string, { name: string; value: string; path: string }>();

  store(url: URL, setCookies: string[]) {
    for (const line of setCookies) {
      const [pair = '', ...attributeParts] = line.split(';');
      const separator = pair.indexOf('=');
      if (separator < 1) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      let path = url.pathname.replace(/\/[^/]*$/, '') || '/';
      let expired = false;
      for (const part of attributeParts) {
        const [key = '', ...rest] = part.split('=');
        const attribute = rest.join('=').trim();
        switch (key.trim().toLowerCase()) {
          case 'path':
            if (attribute.startsWith('/')) path = attribute;
            break;
          case 'max-age':
            expired ||= Number(attribute) <= 0;
            break;
          case 'expires':
            expired ||= Date.parse(attribute) <= Date.now();
            break;
        }
      }
      const key = `${path}\n${name}`;
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, { name, value, path });
    }
  }

  header(url: URL): string {
    const matches = (path: string) =>
      url.pathname === path || url.pathname.startsWith(path.endsWith('/') ? path : `${path}/`);
    return [...this.#cookies.values()]
      .filter((cookie) => matches(cookie.path))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }
}
