// How the inspector's web server answers: JSON or text, always with the same security headers.

import type { ServerResponse } from 'node:http';

export const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // The token is in the address: it must not leave in a Referer.
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

export function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' });
  response.end(text);
}

export function sendText(response: ServerResponse, type: string, text: string, extra = {}): void {
  response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': type, ...extra });
  response.end(text);
}
