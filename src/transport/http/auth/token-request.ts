// One request to a token endpoint (RFC 6749 §3.2): the grant's parameters as a form, the client's
// authentication added (client-authentication.ts), and the answer checked to hold an access token. A
// refusal becomes an AuthorizationError that names the server, the grant and the server's own error. With
// DPoP each request carries a proof, and a server that answers use_dpop_nonce is asked once more with the
// nonce it gave (RFC 9449 §8).

import { authenticateClient } from './client-authentication.js';
import { AuthorizationError, TokenRefusedError } from './errors.js';
import type { StoredClient } from './token-store.js';

export interface TokenRequest {
  /** The token endpoint. */
  endpoint: string;
  /** The authorization server's issuer identifier: a client assertion's audience, and its name in messages. */
  issuer: string;
  /** The client as registered there. */
  client: StoredClient;
  params: Record<string, string>;
  fetch: typeof fetch;
  now: number;
  /** DPoP: makes the proof of this request (with the server's nonce, if any); the nonce the server gives is passed to `nonce`. */
  dpop?: {
    proof: (nonce: string | undefined) => Promise<string>;
    nonce?: string;
    sawNonce: (nonce: string) => void;
  };
}

/** The token endpoint's answer, with `access_token` a string; AuthorizationError when it refuses. */
export async function postTokenRequest(
  request: TokenRequest,
): Promise<Record<string, unknown> & { access_token: string }> {
  const body = new URLSearchParams(request.params);
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded',
    Accept: 'application/json',
  };
  await authenticateClient(request.client, request.issuer, body, headers, request.now);
  const { dpop } = request;
  let nonce = dpop?.nonce;
  let response: Response;
  let answer: Record<string, unknown>;
  for (let attempt = 0; ; attempt++) {
    if (dpop) headers.DPoP = await dpop.proof(nonce);
    try {
      response = await request.fetch(request.endpoint, { method: 'POST', headers, body });
    } catch (error) {
      throw new AuthorizationError(
        `the token endpoint ${request.endpoint} could not be reached: ${(error as Error).message}`,
        { cause: error },
      );
    }
    answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    const given = response.headers.get('dpop-nonce');
    if (!dpop || !given) break;
    dpop.sawNonce(given);
    if (answer.error !== 'use_dpop_nonce' || attempt > 0 || given === nonce) break;
    // A client assertion may be used once only: a new one goes with the new proof.
    await authenticateClient(request.client, request.issuer, body, headers, request.now);
    nonce = given;
  }
  if (!response.ok || typeof answer.access_token !== 'string') {
    const error = typeof answer.error === 'string' ? answer.error : `HTTP ${response.status}`;
    const description = typeof answer.error_description === 'string' ? ` (${answer.error_description})` : '';
    const message = `the token endpoint of ${request.issuer} refused the ${request.params.grant_type} grant: ${error}${description}`;
    // A 4xx is the server's verdict on this grant; anything else (a 5xx, no token) says nothing about it.
    if (response.status >= 400 && response.status < 500) {
      throw new TokenRefusedError(
        message,
        response.status,
        typeof answer.error === 'string' ? answer.error : undefined,
      );
    }
    throw new AuthorizationError(message);
  }
  return answer as Record<string, unknown> & { access_token: string };
}
