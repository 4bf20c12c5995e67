import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classify } from '../../src/jsonrpc/messages.js';

describe('classify', () => {
  it('keeps a string id a string and a number id a number', () => {
    const a = classify({ jsonrpc: '2.0', id: '1', method: 'ping' });
    const b = classify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    assert.equal(a.kind, 'request');
    assert.equal(b.kind, 'request');
    assert.equal(a.kind === 'request' && a.message.id, '1');
    assert.equal(b.kind === 'request' && b.message.id, 1);
  });

  it('treats a message without id as a notification', () => {
    assert.equal(classify({ jsonrpc: '2.0', method: 'notifications/initialized' }).kind, 'notification');
  });

  it('refuses a request whose id is null, and cannot read an id from it', () => {
    const c = classify({ jsonrpc: '2.0', id: null, method: 'ping' });
    assert.equal(c.kind, 'invalid');
    assert.equal(c.kind === 'invalid' && c.id, null);
  });

  it('recovers the id of an invalid request when it can', () => {
    const c = classify({ jsonrpc: '1.0', id: 'abc', method: 'ping' });
    assert.deepEqual(c.kind === 'invalid' && c.id, 'abc');
  });

  it('sorts success and error responses', () => {
    assert.equal(classify({ jsonrpc: '2.0', id: 3, result: {} }).kind, 'response');
    assert.equal(
      classify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } }).kind,
      'response',
    );
    assert.equal(
      classify({ jsonrpc: '2.0', id: 3, result: {}, error: { code: 1, message: 'x' } }).kind,
      'invalid',
    );
  });

  it('refuses params that are neither object nor array', () => {
    assert.equal(classify({ jsonrpc: '2.0', id: 1, method: 'x', params: 'str' }).kind, 'invalid');
    assert.equal(classify({ jsonrpc: '2.0', id: 1, method: 'x', params: [1] }).kind, 'request');
  });
});
