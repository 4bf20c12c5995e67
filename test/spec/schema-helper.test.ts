// The helper that checks what servers send (test/support/spec-validate.ts) must be able to fail: it refuses
// messages that break a revision's schema, and fields the revision does not define.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messageErrors } from '../support/spec-validate.js';

const answers = (method: string) => () => method;
const tool = { name: 't', inputSchema: { type: 'object' } };

describe('the schema helper', () => {
  it('accepts a valid tools/list response in every revision', async () => {
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      const message = { jsonrpc: '2.0', id: 1, result: { tools: [tool] } };
      assert.deepEqual(await messageErrors(revision, message, answers('tools/list')), [], revision);
    }
  });

  it('refuses a result that lacks a required field of its type', async () => {
    const message = { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 't' }] } };
    const errors = await messageErrors('2025-11-25', message, answers('tools/list'));
    assert.ok(
      errors.some((e) => e.includes('inputSchema')),
      errors.join('\n'),
    );
  });

  it('refuses a field the revision does not define (a tool title in 2024-11-05)', async () => {
    const message = { jsonrpc: '2.0', id: 1, result: { tools: [{ ...tool, title: 'T' }] } };
    assert.deepEqual(await messageErrors('2025-06-18', message, answers('tools/list')), []);
    const errors = await messageErrors('2024-11-05', message, answers('tools/list'));
    assert.ok(
      errors.some((e) => e.includes('"title"')),
      errors.join('\n'),
    );
  });

  it('refuses a result answering no known request, and a method servers do not send', async () => {
    const orphan = await messageErrors('2025-11-25', { jsonrpc: '2.0', id: 9, result: {} }, () => undefined);
    assert.ok(orphan.some((e) => e.includes('answers no known request')));
    const wrong = await messageErrors(
      '2025-11-25',
      { jsonrpc: '2.0', method: 'tools/call' },
      () => undefined,
    );
    assert.ok(wrong.some((e) => e.includes('no server may send')));
  });

  it('refuses a notification whose params break its type (a progress message in 2024-11-05)', async () => {
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1, message: 'half' },
    };
    assert.deepEqual(await messageErrors('2025-03-26', progress, () => undefined), []);
    const old = await messageErrors('2024-11-05', progress, () => undefined);
    assert.ok(
      old.some((e) => e.includes('"message"')),
      old.join('\n'),
    );
    const bad = await messageErrors('2025-11-25', { ...progress, params: { progress: 1 } }, () => undefined);
    assert.ok(bad.length > 0);
  });

  it('accepts a batch response only in 2025-03-26', async () => {
    const batch = [{ jsonrpc: '2.0', id: 1, result: {} }];
    assert.deepEqual(await messageErrors('2025-03-26', batch, answers('ping')), []);
    assert.notDeepEqual(await messageErrors('2025-06-18', batch, answers('ping')), []);
  });
});
