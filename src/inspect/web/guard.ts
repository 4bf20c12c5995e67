// Who may talk to the inspector's web server: only a page on this machine that was given the session's
// token. The official Inspector's proxy once let any web page run commands (CVE-2025-49596: no
// authentication, no Origin check), so every request is checked, in this order: the peer is loopback, the
// Host header names us (a DNS-rebound name does not), a browser's Origin is ours (another site's page is
// refused even with the token), and the token matches, compared in constant time.

import { createHash, timingSafeEqual } from 'node:crypto';

export interface GuardedRequest {
  remoteAddress: string | undefined;
  host: string | undefined;
  origin: string | undefined;
  /** The token the request carries: in the query (?token=) or the x-mcpwire-token header. */
  token: string | undefined;
}

export interface Refusal {
  status: 401 | 403 | 421;
  message: string;
}

/** The names the page may be reached by: 127.0.0.1 and localhost, on our port. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** Why a request is refused, or undefined when it may go on. */
export function checkRequest(request: GuardedRequest, port: number, token: string): Refusal | undefined {
  if (!isLoopback(request.remoteAddress))
    return { status: 403, message: 'the inspector serves this machine only (loopback)' };
  const hosts = allowedHosts(port);
  if (request.host === undefined || !hosts.includes(request.host.toLowerCase()))
    return {
      status: 421,
      message: `the Host header must be one of ${hosts.join(', ')} (got ${JSON.stringify(request.host ?? '')})`,
    };
  if (request.origin !== undefined && !hosts.map((h) => `http://${h}`).includes(request.origin.toLowerCase()))
    return { status: 403, message: `requests from the origin ${JSON.stringify(request.origin)} are refused` };
  if (request.token === undefined || request.token === '')
    return {
      status: 401,
      message: 'this inspector needs its token: open the address mcpwire inspect printed',
    };
  if (!sameToken(request.token, token)) return { status: 401, message: 'wrong token' };
  return undefined;
}

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/** Constant-time equality: both sides are hashed first, so that their lengths leak nothing either. */
export function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
