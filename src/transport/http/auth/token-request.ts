// One request to a token endpoint (RFC 6749 §3.2): the grant's parameters as a form, the client's
// authentication added (client-authentication.ts), and the answer checked to hold an access token. A
// refusal becomes an AuthorizationError that names the server, the grant and the server's own error.

import { authenticateClient } from './client-authentication.js';
import { AuthorizationError } from './errors.js';
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
  let response: Response;
  try {
    response = await request.fetch(request.endpoint, { method: 'POST', headers, body });
  } catch (error) {
    throw new AuthorizationError(
      `the token endpoint ${request.endpoint} could not be reached: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof answer.access_token !== 'string') {
    const error = typeof answer.error === 'string' ? answer.error : `HTTP ${response.status}`;
    const description = typeof answer.error_description === 'string' ? ` (${answer.error_description})` : '';
    throw new AuthorizationError(
      `the token endpoint of ${request.issuer} refused the ${request.params.grant_type} grant: ${error}${description}`,
    );
  }
  return answer as Record<string, unknown> & { access_token: string };
}
