// Tool names the specification advises against (2025-11-25 server/tools: 1 to 128 characters of
// A-Z, a-z, 0-9, "_", "-" and ".") still register, with a warning that names the problem.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer, toolNameAdvice } from '../../src/server/server.js';

const schema = { type: 'object' } as const;
const ok = async () => ({ content: [] });

describe('tool names', () => {
  it('bug: a tool named "has space" was accepted without a warning; it is registered, and the warning says why', () => {
    const warnings: string[] = [];
    const server = new McpServer({ name: 't', version: '1', onWarning: (w) => warnings.push(w) });
    server.tool({ name: 'has space', inputSchema: schema }, ok);
    server.tool({ name: 'fine_name-1.0', inputSchema: schema }, ok);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^tool "has space": .*this one has space/);
  });

  it('names every character the advice leaves out, and the length limits', () => {
    assert.equal(toolNameAdvice('get_weather'), undefined);
    assert.equal(toolNameAdvice('a'.repeat(128)), undefined);
    assert.match(toolNameAdvice('a'.repeat(129))!, /1 to 128 characters long, not 129/);
    assert.match(toolNameAdvice('')!, /not 0/);
    assert.match(toolNameAdvice('a,b/c')!, /",", "\/"/);
  });

  it('warns through process.emitWarning (stderr, never stdout) when no onWarning is given', (t) => {
    const emitted: unknown[] = [];
    t.mock.method(process, 'emitWarning', (message: unknown) => emitted.push(message));
    new McpServer({ name: 't', version: '1' }).tool({ name: 'bad name', inputSchema: schema }, ok);
    assert.equal(emitted.length, 1);
  });

  // Found in review: the regex fast path turned a name that is not a string into text, so { name: 42 }
  // registered silently (before it, the advice's own code threw by accident: name.replace is not a function).
  it('refuses a name that is not a string, saying what it was', () => {
    const server = new McpServer({ name: 't', version: '1', onWarning: () => {} });
    for (const [name, shown] of [
      [42, '42'],
      [['ab'], '["ab"]'],
      [10n, '10n'],
      [undefined, 'nothing'],
      ['', 'an empty string'],
    ] as const) {
      assert.throws(
        () => server.tool({ name: name as unknown as string, inputSchema: schema }, ok),
        (error: unknown) =>
          error instanceof TypeError &&
          error.message === `a tool needs a non-empty string for its name, not ${shown}`,
      );
    }
  });
});
