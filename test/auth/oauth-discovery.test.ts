// The OAuth client's discovery and its refusals, against a fake fetch (no sockets): the well-known URIs
// in the specification's order, the resource metadata's origin and resource checked, the authorization
// server's issuer checked, PKCE support required. Each refusal is one sentence that names the problem.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { metadataUrls } from '../../src/transport/http/auth/metadata.js';
import { AuthorizationError, OAuthClient } from '../../src/transport/http/auth/oauth-client.js';

const SERVER = 'https://mcp.example.com/tenant/mcp';
const ISSUER = 'https://auth.example.com';

type Routes = Record<string, unknown>;

/** A fetch that answers JSON documents by URL, 404 for the rest, and records what was asked. */
function fakeFetch(routes: Routes, asked: string[] = []): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    asked.push(`${init?.method ?? 'GET'} ${url}`);
    const body = routes[url];
    if (body === undefined) return new Response('not found', { status: 404 });
    if (typeof body === 'function') return (body as () => Response)();
    return Response.json(body);
  }) as typeof fetch;
}

const asMetadata = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/authorize`,
  token_endpoint: `${ISSUER}/token`,
  registration_endpoint: `${ISSUER}/register`,
  code_challenge_methods_supported: ['S256'],
};
const prm = { resource: SERVER, authorization_servers: [ISSUER] };

function client(routes: Routes, asked?: string[]) {
  return new OAuthClient({
    server: SERVER,
    redirectUri: 'http://127.0.0.1:1/callback',
    fetch: fakeFetch(routes, asked),
    authorize: async () => {
      throw new Error('the test never gets this far');
    },
  });
}

const refusal = (challenge = 'Bearer') => ({ status: 401, wwwAuthenticate: challenge });

describe('OAuth discovery', () => {
  it('tries the authorization server metadata URLs in the specification order', () => {
    assert.deepEqual(
      metadataUrls('https://auth.example.com/tenant1').map((u) => u.href),
      [
        'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
        'https://auth.example.com/.well-known/openid-configuration/tenant1',
        'https://auth.example.com/tenant1/.well-known/openid-configuration',
      ],
    );
    assert.deepEqual(
      metadataUrls('https://auth.example.com').map((u) => u.href),
      [
        'https://auth.example.com/.well-known/oauth-authorization-server',
        'https://auth.example.com/.well-known/openid-configuration',
      ],
    );
  });

  it('without a resource_metadata in the challenge, tries the path-inserted well-known URI, then the root', async () => {
    const asked: string[] = [];
    const c = client(
      {
        'https://mcp.example.com/.well-known/oauth-protected-resource': prm,
        [`${ISSUER}/.well-known/openid-configuration`]: asMetadata,
        [`${ISSUER}/register`]: () => Response.json({ client_id: 'c1' }, { status: 201 }),
      },
      asked,
    );
    await assert.rejects(c.refused(refusal()), /the test never gets this far/);
    assert.deepEqual(asked.slice(0, 4), [
      'GET https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp',
      'GET https://mcp.example.com/.well-known/oauth-protected-resource',
      `GET ${ISSUER}/.well-known/oauth-authorization-server`,
      `GET ${ISSUER}/.well-known/openid-configuration`,
    ]);
  });

  const refusals: Array<[string, Routes, string, RegExp]> = [
    [
      'a resource_metadata URL on another origin',
      {},
      'Bearer resource_metadata="https://evil.example.net/.well-known/oauth-protected-resource"',
      /another origin \(https:\/\/evil\.example\.net/,
    ],
    [
      'resource metadata for another resource',
      {
        'https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp': {
          ...prm,
          resource: 'https://other.example.com/mcp',
        },
      },
      'Bearer',
      /is for "https:\/\/other\.example\.com\/mcp"/,
    ],
    [
      'authorization server metadata that names another issuer',
      {
        'https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp': prm,
        [`${ISSUER}/.well-known/oauth-authorization-server`]: {
          ...asMetadata,
          issuer: 'https://evil.example.net',
        },
      },
      'Bearer',
      /is for issuer "https:\/\/evil\.example\.net", not "https:\/\/auth\.example\.com"/,
    ],
    [
      'an authorization server without PKCE S256',
      {
        'https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp': prm,
        [`${ISSUER}/.well-known/oauth-authorization-server`]: {
          ...asMetadata,
          code_challenge_methods_supported: undefined,
        },
        [`${ISSUER}/register`]: () => Response.json({ client_id: 'c1' }, { status: 201 }),
      },
      'Bearer',
      /does not advertise PKCE S256/,
    ],
    ['no resource metadata at all', {}, 'Bearer', /publishes no protected resource metadata/],
    [
      'no way to register',
      {
        'https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp': prm,
        [`${ISSUER}/.well-known/oauth-authorization-server`]: {
          ...asMetadata,
          registration_endpoint: undefined,
        },
      },
      'Bearer',
      /offers no way to register this client/,
    ],
  ];
  for (const [name, routes, challenge, message] of refusals) {
    it(`refuses ${name}, in one sentence`, async () => {
      await assert.rejects(client(routes).refused(refusal(challenge)), (error: Error) => {
        assert.ok(error instanceof AuthorizationError, String(error));
        assert.match(error.message, message);
        return true;
      });
    });
  }
});

// MCP 2025-03-26 had no protected resource metadata: the MCP server's origin was the authorization base
// URL, with RFC 8414 metadata at its root and, without it, the endpoints /authorize, /token and /register.
// The conformance suite's backcompat scenarios found that the client refused such a server outright.
describe('OAuth discovery of a 2025-03-26 server (no protected resource metadata)', () => {
  const ORIGIN = 'https://mcp.example.com';

  /** A client whose browser redirects at once with a code, and the routes of a 2025-03-26 server. */
  function legacyClient(routes: Routes, asked: string[], authorized: URL[]) {
    return new OAuthClient({
      server: SERVER,
      redirectUri: 'http://127.0.0.1:1/callback',
      fetch: fakeFetch(routes, asked),
      authorize: async (url) => {
        authorized.push(url);
        const back = new URL('http://127.0.0.1:1/callback');
        back.searchParams.set('code', 'c0de');
        back.searchParams.set('state', url.searchParams.get('state')!);
        return back;
      },
    });
  }
  const register = () => Response.json({ client_id: 'legacy-client' }, { status: 201 });
  const token = () => Response.json({ access_token: 'legacy-token', token_type: 'Bearer', expires_in: 60 });

  it('uses the metadata at the root of the server origin, even for an issuer with a path there', async () => {
    const asked: string[] = [];
    const authorized: URL[] = [];
    const c = legacyClient(
      {
        [`${ORIGIN}/.well-known/oauth-authorization-server`]: {
          issuer: `${ORIGIN}/oauth`,
          authorization_endpoint: `${ORIGIN}/oauth/authorize`,
          token_endpoint: `${ORIGIN}/oauth/token`,
          registration_endpoint: `${ORIGIN}/oauth/register`,
          code_challenge_methods_supported: ['S256'],
        },
        [`${ORIGIN}/oauth/register`]: register,
        [`${ORIGIN}/oauth/token`]: token,
      },
      asked,
      authorized,
    );
    assert.equal(await c.refused(refusal()), true);
    assert.deepEqual(asked, [
      `GET ${ORIGIN}/.well-known/oauth-protected-resource/tenant/mcp`,
      `GET ${ORIGIN}/.well-known/oauth-protected-resource`,
      `GET ${ORIGIN}/.well-known/oauth-authorization-server`,
      `POST ${ORIGIN}/oauth/register`,
      `POST ${ORIGIN}/oauth/token`,
    ]);
    assert.equal(authorized[0]!.origin + authorized[0]!.pathname, `${ORIGIN}/oauth/authorize`);
    assert.equal(authorized[0]!.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorized[0]!.searchParams.get('resource'), SERVER);
    assert.equal(await c.authorization(), 'Bearer legacy-token');
  });

  it('without any metadata, uses /authorize, /token and /register on the server origin', async () => {
    const asked: string[] = [];
    const authorized: URL[] = [];
    const c = legacyClient(
      { [`${ORIGIN}/register`]: register, [`${ORIGIN}/token`]: token },
      asked,
      authorized,
    );
    assert.equal(await c.refused(refusal()), true);
    assert.deepEqual(asked.slice(2), [
      `GET ${ORIGIN}/.well-known/oauth-authorization-server`,
      `POST ${ORIGIN}/register`,
      `POST ${ORIGIN}/token`,
    ]);
    assert.equal(authorized[0]!.origin + authorized[0]!.pathname, `${ORIGIN}/authorize`);
    assert.ok(authorized[0]!.searchParams.get('code_challenge'));
    assert.equal(await c.authorization(), 'Bearer legacy-token');
  });

  it('refuses root metadata that names an issuer on another origin', async () => {
    const c = legacyClient({ [`${ORIGIN}/.well-known/oauth-authorization-server`]: asMetadata }, [], []);
    await assert.rejects(c.refused(refusal()), (error: Error) => {
      assert.ok(error instanceof AuthorizationError, String(error));
      assert.match(
        error.message,
        /is for issuer "https:\/\/auth\.example\.com", which is not on https:\/\/mcp\.example\.com/,
      );
      return true;
    });
  });

  it('a failure at the default endpoints says how they were found', async () => {
    await assert.rejects(legacyClient({}, [], []).refused(refusal()), (error: Error) => {
      assert.ok(error instanceof AuthorizationError, String(error));
      assert.match(
        error.message,
        /registration at https:\/\/mcp\.example\.com\/register failed \(HTTP 404\)/,
      );
      assert.match(error.message, /publishes no protected resource metadata .* 2025-03-26 default endpoints/);
      return true;
    });
  });

  it('does not fall back when the server announced resource metadata that is not there', async () => {
    const asked: string[] = [];
    const announced = `Bearer resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/tenant/mcp"`;
    await assert.rejects(
      legacyClient({}, asked, []).refused(refusal(announced)),
      /publishes no protected resource metadata/,
    );
    assert.deepEqual(asked, [`GET ${ORIGIN}/.well-known/oauth-protected-resource/tenant/mcp`]);
  });
});
