// PKCE (RFC 7636) with S256, the only method MCP allows, and the random `state` of each authorization
// request. Verifiers are 43 characters of base64url from 32 random bytes, within the RFC's 43-128.

import { nodeCrypto } from '../../platform/builtins.js';

export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

export function createPkce(): Pkce {
  const verifier = nodeCrypto().randomBytes(32).toString('base64url');
  const challenge = nodeCrypto().createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge, method: 'S256' };
}

export function randomState(): string {
  return nodeCrypto().randomBytes(16).toString('base64url');
}
