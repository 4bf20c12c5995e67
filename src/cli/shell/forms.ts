// The shell is a client with a person at the keyboard, so it answers what a server asks of a person: an
// elicitation as a form built from its schema (or, in URL mode, a link to open), and a sampling request
// as a question the person answers in the model's place, or declines.

import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
} from '../../protocol/types.js';

/** How a form talks to the person: one question, one line of answer (rejects when the person gives up). */
export interface Asker {
  ask(question: string): Promise<string>;
  print(text: string): void;
}

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  items?: { enum?: unknown[]; anyOf?: Array<{ const?: unknown; title?: string }> };
  default?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
}

/** y / n / c, as the first question of every form: accept (fill it in), decline, or cancel. */
async function choose(asker: Asker, question: string): Promise<'accept' | 'decline' | 'cancel'> {
  for (;;) {
    const answer = (await asker.ask(`${question} [Y]es / [n]o (decline) / [c]ancel: `)).trim().toLowerCase();
    if (answer === '' || answer === 'y' || answer === 'yes') return 'accept';
    if (answer === 'n' || answer === 'no') return 'decline';
    if (answer === 'c' || answer === 'cancel') return 'cancel';
    asker.print('Type y, n or c.');
  }
}

export async function answerElicitation(params: ElicitRequestParams, asker: Asker): Promise<ElicitResult> {
  asker.print(`The server asks: ${params.message}`);
  if (params.mode === 'url') {
    asker.print(`Open this link to go on: ${params.url}`);
    return { action: await choose(asker, 'Done (and consent to it)?') };
  }
  const action = await choose(asker, 'Fill in the form?');
  if (action !== 'accept') return { action };
  const schema = params.requestedSchema as { properties?: Record<string, FieldSchema>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const content: NonNullable<ElicitResult['content']> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const value = await askField(asker, name, field, required.has(name));
    if (value !== undefined) content[name] = value;
  }
  return { action: 'accept', content };
}

/** The choices of an enum field: its values, and the titles to show for them. */
function choicesOf(field: FieldSchema): { value: unknown; title: string }[] | undefined {
  if (field.enum) return field.enum.map((value) => ({ value, title: String(value) }));
  if (field.oneOf) return field.oneOf.map((o) => ({ value: o.const, title: o.title ?? String(o.const) }));
  const items = field.items;
  if (items?.enum) return items.enum.map((value) => ({ value, title: String(value) }));
  if (items?.anyOf) return items.anyOf.map((o) => ({ value: o.const, title: o.title ?? String(o.const) }));
  return undefined;
}

async function askField(
  asker: Asker,
  name: string,
  field: FieldSchema,
  required: boolean,
): Promise<string | number | boolean | string[] | undefined> {
  const choices = choicesOf(field);
  const many = field.type === 'array';
  const label = field.title ?? name;
  const about = field.description ? ` (${field.description})` : '';
  if (choices) asker.print(`${label}${about}: ${choices.map((c, i) => `${i + 1}) ${c.title}`).join('  ')}`);
  const shownDefault = field.default === undefined ? '' : ` [${JSON.stringify(field.default)}]`;
  const kind = many ? 'numbers, comma-separated' : choices ? 'a number' : (field.type ?? 'text');
  for (;;) {
    const text = (
      await asker.ask(
        `${choices ? label : `${label}${about}`} (${kind}${required ? '' : ', optional'})${shownDefault}: `,
      )
    ).trim();
    if (text === '') {
      if (field.default !== undefined) return field.default as string | number | boolean | string[];
      if (!required) return undefined;
      asker.print(`${label} is required.`);
      continue;
    }
    const value = parseField(text, field, choices, many);
    if (typeof value === 'object' && value !== null && 'error' in value) {
      asker.print(value.error);
      continue;
    }
    return value;
  }
}

function parseField(
  text: string,
  field: FieldSchema,
  choices: { value: unknown; title: string }[] | undefined,
  many: boolean,
): string | number | boolean | string[] | { error: string } {
  if (choices) {
    const picked: unknown[] = [];
    for (const part of many ? text.split(',') : [text]) {
      const index = Number(part.trim());
      const byNumber = Number.isInteger(index) ? choices[index - 1] : undefined;
      const byName = choices.find((c) => c.title === part.trim() || String(c.value) === part.trim());
      const choice = byNumber ?? byName;
      if (!choice) return { error: `Pick ${many ? 'numbers' : 'a number'} from 1 to ${choices.length}.` };
      picked.push(choice.value);
    }
    return many ? (picked as string[]) : (picked[0] as string);
  }
  switch (field.type) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return true;
      if (/^(n|no|false)$/i.test(text)) return false;
      return { error: 'Type yes or no.' };
    case 'number':
    case 'integer': {
      const number = Number(text);
      if (!Number.isFinite(number) || (field.type === 'integer' && !Number.isInteger(number)))
        return { error: `Type ${field.type === 'integer' ? 'a whole number' : 'a number'}.` };
      if (field.minimum !== undefined && number < field.minimum)
        return { error: `At least ${field.minimum}.` };
      if (field.maximum !== undefined && number > field.maximum)
        return { error: `At most ${field.maximum}.` };
      return number;
    }
    default:
      return text;
  }
}

export async function answerSampling(
  params: CreateMessageRequestParams,
  asker: Asker,
): Promise<CreateMessageResult> {
  asker.print("The server asks for a model answer (sampling). You answer in the model's place.");
  if (params.systemPrompt) asker.print(`  system: ${params.systemPrompt}`);
  for (const message of params.messages) {
    const content = message.content as
      | { type?: string; text?: string }
      | Array<{ type?: string; text?: string }>;
    const parts = Array.isArray(content) ? content : [content];
    const text = parts.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join(' ');
    asker.print(`  ${message.role}: ${text}`);
  }
  const answer = await asker.ask(`Your answer (up to ${params.maxTokens} tokens; an empty line declines): `);
  if (answer.trim() === '') {
    // What the specification suggests a client answer when its user rejects a sampling request.
    throw new JsonRpcError(ErrorCode.UserRejected, 'the user declined the sampling request');
  }
  return {
    role: 'assistant',
    content: { type: 'text', text: answer },
    model: 'a person at the mcpwire shell',
    stopReason: 'endTurn',
  };
}
