// The Bearer challenge, written by the resource server and read by the client: what one writes the
// other reads back, and a client reads the challenges real servers send (several schemes, odd spacing).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scopesFor } from '../../src/protocol/http/scopes.js';
import { formatChallenge, parseBearerChallenge } from '../../src/transport/http/auth/challenge.js';

describe('WWW-Authenticate Bearer challenges', () => {
  it('reads back what it writes, quotes and backslashes included', () => {
    const params = {
      error: 'insufficient_scope',
      error_description: 'needs "admin" \\ more',
      scope: 'a b',
      resource_metadata: 'https://x.example/.well-known/oauth-protected-resource/mcp',
    };
    assert.deepEqual(parseBearerChallenge(formatChallenge(params)), params);
  });

  it('finds the Bearer challenge among others, with names in any case and unquoted values', () => {
    const header =
      'Basic realm="x", Bearer  Resource_Metadata="https://a.example/prm",scope=files:read, error=invalid_token, DPoP algs="ES256"';
    assert.deepEqual(parseBearerChallenge(header), {
      resource_metadata: 'https://a.example/prm',
      scope: 'files:read',
      error: 'invalid_token',
    });
  });

  it('has nothing to read without a Bearer challenge', () => {
    assert.equal(parseBearerChallenge(undefined), undefined);
    assert.equal(parseBearerChallenge('Basic realm="x"'), undefined);
    assert.deepEqual(parseBearerChallenge('Bearer'), {});
  });
});

describe('scopes per method and per tool', () => {
  const needs = scopesFor({ methods: { 'resources/read': ['files:read'] }, tools: { rm: ['files:write'] } });
  it('names what a request, or any request of a batch, needs; notifications and responses need nothing', () => {
    assert.deepEqual(needs({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'x' } }), [
      'files:read',
    ]);
    assert.deepEqual(needs({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'rm' } }), [
      'files:write',
    ]);
    assert.deepEqual(needs({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ls' } }), []);
    assert.deepEqual(
      needs([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'rm' } },
        { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'x' } },
      ]).toSorted(),
      ['files:read', 'files:write'],
    );
    assert.deepEqual(needs({ jsonrpc: '2.0', method: 'resources/read' }), []);
  });
});
