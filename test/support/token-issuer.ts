// A minimal token issuer for the resource-server tests: its own signing keys, RFC 8414 metadata and a
// JWK Set on 127.0.0.1, and a function that mints whatever access token a test needs, including the
// broken ones (expired, not yet valid, wrong audience or issuer, foreign key, `alg: none`). The real
// authorization server (oidc-provider, authorization-server.ts) issues only good tokens; the refusals
// need tokens no real server would issue. A test may open a token endpoint too (`grant`), for a grant
// oidc-provider does not offer (the JWT bearer grant of workload identity federation).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

export interface MintOptions {
  audience?: string | string[];
  issuer?: string;
  subject?: string;
  scope?: string;
  /** Seconds from now (negative: already expired). */
  expiresIn?: number;
  /** Seconds from now the token becomes valid. */
  notBefore?: number;
  /** Sign with a key the issuer does not publish. */
  foreignKey?: boolean;
  /** Name a key id the issuer does not publish (signed with the real key). */
  kid?: string;
  clientId?: string;
  extra?: Record<string, unknown>;
  /** Sign with HS256 and this shared secret (an algorithm a resource server must not accept). */
  hmacSecret?: string;
}

export interface TokenIssuer {
  issuer: string;
  /** How many times the JWK Set was fetched. */
  jwksFetches(): number;
  mint(options?: MintOptions): Promise<string>;
  /** An unsecured JWT (`alg: none`) with the right claims. */
  unsigned(options?: MintOptions): string;
  close(): Promise<void>;
}

export interface TokenIssuerOptions {
  /**
   * Opens a token endpoint: each POST's form goes here, and what comes back is minted as the access token
   * (a string is the `error_description` of a 400 invalid_grant refusal).
   */
  grant?: (form: URLSearchParams) => MintOptions | string;
}

export async function startTokenIssuer(options: TokenIssuerOptions = {}): Promise<TokenIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', use: 'sig', alg: 'RS256' };
  let fetches = 0;
  let issuer = '';
  const server: Server = createServer((request, response) => {
    const json = (value: unknown, status = 200) =>
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
    if (request.url === '/token' && request.method === 'POST' && options.grant) {
      const grant = options.grant;
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        const minted = grant(new URLSearchParams(body));
        if (typeof minted === 'string') {
          json({ error: 'invalid_grant', error_description: minted }, 400);
          return;
        }
        void mint(minted).then((token) =>
          json({ access_token: token, token_type: 'Bearer', expires_in: minted.expiresIn ?? 300 }),
        );
      });
      return;
    }
    if (request.url === '/.well-known/oauth-authorization-server') {
      json({ issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: `${issuer}/token` });
    } else if (request.url === '/jwks') {
      fetches++;
      json({ keys: [jwk] });
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const claims = (options: MintOptions) => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: options.issuer ?? issuer,
      sub: options.subject ?? 'alice',
      aud: options.audience,
      client_id: options.clientId ?? 'test-client',
      scope: options.scope ?? '',
      iat: now,
      exp: now + (options.expiresIn ?? 300),
      ...(options.notBefore !== undefined ? { nbf: now + options.notBefore } : {}),
      ...options.extra,
    };
  };
  const mint = async (options: MintOptions = {}) => {
    if (options.hmacSecret !== undefined) {
      return new SignJWT(claims(options))
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: options.kid ?? 'k1' })
        .sign(new TextEncoder().encode(options.hmacSecret));
    }
    const key = options.foreignKey ? foreign.privateKey : privateKey;
    return new SignJWT(claims(options))
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: options.kid ?? 'k1' })
      .sign(key);
  };
  return {
    issuer,
    jwksFetches: () => fetches,
    mint,
    unsigned(options = {}) {
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${part({ alg: 'none', typ: 'at+jwt' })}.${part(claims(options))}.`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
