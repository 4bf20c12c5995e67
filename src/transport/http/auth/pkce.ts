// PKCE (RFC 7636) with S256, the only method MCP allows, and the random `state` of each authorization
// request. Verifiers are 43 characters of base64url from 32 random bytes, within the RFC's 43-128.

import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge, method: 'S256' };
}

export function randomState(): string {
  return randomBytes(16).toString('base64url');
}
