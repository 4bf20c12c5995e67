// The shell's answers to a server's questions, with a scripted person: forms built from the schema
// (types, choices, defaults, required fields, re-asking after a wrong answer), URL elicitation, and
// sampling answered or declined.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Asker, answerElicitation, answerSampling } from '../../src/cli/shell/forms.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';

function person(answers: string[]): Asker & { printed: string[]; asked: string[] } {
  const printed: string[] = [];
  const asked: string[] = [];
  return {
    printed,
    asked,
    print: (text) => printed.push(text),
    ask: async (question) => {
      asked.push(question);
      const next = answers.shift();
      if (next === undefined) throw new Error(`asked more than scripted: ${question}`);
      return next;
    },
  };
}

describe('the shell answers an elicitation with a form', () => {
  const requestedSchema = {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name' },
      age: { type: 'integer', minimum: 0 },
      colour: { type: 'string', enum: ['red', 'green', 'blue'] },
      tags: { type: 'array', items: { enum: ['a', 'b', 'c'] } },
      subscribe: { type: 'boolean', default: false },
      nickname: { type: 'string' },
    },
    required: ['name', 'age', 'colour'],
  };

  it('asks each field in its type, re-asks a wrong answer, and fills in defaults', async () => {
    // yes; a required name left empty, then given; age not a whole number, then given; colour by
    // number; tags by numbers; subscribe left to its default; nickname (optional) skipped.
    const asker = person(['', '', 'Ada', '3.5', '36', '2', '1,3', '', '']);
    const result = await answerElicitation({ message: 'Who are you?', requestedSchema }, asker);
    assert.deepEqual(result, {
      action: 'accept',
      content: { name: 'Ada', age: 36, colour: 'green', tags: ['a', 'c'], subscribe: false },
    });
    assert.ok(asker.printed.includes('Name is required.'));
    assert.ok(asker.printed.includes('Type a whole number.'));
    assert.ok(asker.printed.some((line) => line.includes('1) red  2) green  3) blue')));
  });

  it('declines and cancels when told', async () => {
    assert.deepEqual(await answerElicitation({ message: 'x', requestedSchema }, person(['n'])), {
      action: 'decline',
    });
    assert.deepEqual(await answerElicitation({ message: 'x', requestedSchema }, person(['c'])), {
      action: 'cancel',
    });
  });

  it('shows a URL elicitation as a link to open, and says whether the person went on', async () => {
    const asker = person(['y']);
    const result = await answerElicitation(
      { mode: 'url', message: 'Sign in', elicitationId: 'e1', url: 'https://example.com/auth' },
      asker,
    );
    assert.deepEqual(result, { action: 'accept' });
    assert.ok(asker.printed.includes('Open this link to go on: https://example.com/auth'));
  });
});

describe("the shell answers a sampling request in the model's place", () => {
  const params = {
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Say hi' } }],
    maxTokens: 50,
    systemPrompt: 'Be brief.',
  };

  it('shows the conversation and sends the typed answer', async () => {
    const asker = person(['Hi!']);
    const result = await answerSampling(params, asker);
    assert.equal(result.role, 'assistant');
    assert.deepEqual(result.content, { type: 'text', text: 'Hi!' });
    assert.ok(asker.printed.includes('  user: Say hi'));
    assert.ok(asker.printed.includes('  system: Be brief.'));
  });

  it('declines with an empty answer: error -1, as the specification suggests', async () => {
    await assert.rejects(answerSampling(params, person([''])), (error: unknown) => {
      assert.ok(error instanceof JsonRpcError);
      assert.equal(error.code, -1);
      return true;
    });
  });
});
