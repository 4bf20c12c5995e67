// A server's requests for the person, as dialogs: an elicitation (a form from its requested schema, or a
// URL to open) and a sampling request (its messages, and the reply the person writes).

import { useState } from 'preact/hooks';
import { post } from './api';
import { SchemaForm } from './form';
import { collect, type Draft, type FieldError, initialDraft } from './schema-form';
import { store } from './store';
import type { Ask } from './types';

export function AskDialog({ ask }: { ask: Ask }) {
  return (
    <div class="overlay">
      <div class="dialog" role="dialog" aria-label={ask.kind} data-testid={`ask-${ask.kind}`}>
        {ask.kind === 'elicitation' ? <Elicitation ask={ask} /> : <Sampling ask={ask} />}
      </div>
    </div>
  );
}

function answer(ask: Ask, result: unknown) {
  store.asks = store.asks.filter((a) => a.id !== ask.id);
  void post('answer', { id: ask.id, result });
}

function Elicitation({ ask }: { ask: Ask }) {
  const params = ask.params as { message?: string; mode?: string; url?: string; requestedSchema?: unknown };
  const schema = params.requestedSchema ?? { type: 'object', properties: {} };
  const [draft, setDraft] = useState<Draft>(() => initialDraft(schema, schema));
  const [errors, setErrors] = useState<FieldError[]>([]);
  return (
    <div>
      <h2>{ask.server || 'A server'} asks</h2>
      <p>{params.message}</p>
      {params.mode === 'url' ? (
        <p>
          <a href={params.url} target="_blank" rel="noreferrer noopener">
            {params.url}
          </a>
        </p>
      ) : (
        <SchemaForm
          schema={schema}
          draft={draft}
          errors={errors}
          onDraft={(next) => {
            setDraft(next);
            // Once problems are shown, they go away as they are fixed.
            if (errors.length > 0) setErrors(collect(schema, next, schema).errors);
          }}
        />
      )}
      <div class="toolbar">
        <button
          type="button"
          class="primary"
          data-testid="ask-accept"
          onClick={() => {
            if (params.mode === 'url') return answer(ask, { action: 'accept' });
            const collected = collect(schema, draft, schema);
            setErrors(collected.errors);
            if (collected.errors.length === 0)
              answer(ask, { action: 'accept', content: collected.value ?? {} });
          }}
        >
          Accept
        </button>
        <button type="button" data-testid="ask-decline" onClick={() => answer(ask, { action: 'decline' })}>
          Decline
        </button>
        <button type="button" onClick={() => answer(ask, { action: 'cancel' })}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function Sampling({ ask }: { ask: Ask }) {
  const params = ask.params as {
    messages?: Array<{
      role: string;
      content: { type: string; text?: string } | Array<{ type: string; text?: string }>;
    }>;
    systemPrompt?: string;
    maxTokens?: number;
  };
  const [text, setText] = useState('');
  const [model, setModel] = useState('a person at mcpwire inspect');
  return (
    <div>
      <h2>{ask.server || 'A server'} asks for a completion</h2>
      {params.systemPrompt ? <p class="muted">system: {params.systemPrompt}</p> : null}
      {(params.messages ?? []).map((m) => (
        <div class="message">
          <b>{m.role}</b>{' '}
          {(Array.isArray(m.content) ? m.content : [m.content])
            .map((c) => (c.type === 'text' ? c.text : `[${c.type}]`))
            .join(' ')}
        </div>
      ))}
      <label class="field">
        <span class="label">Reply (at most {params.maxTokens ?? '?'} tokens)</span>
        <textarea
          rows={4}
          value={text}
          data-testid="sampling-reply"
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </label>
      <label class="field">
        <span class="label">Model</span>
        <input value={model} onInput={(e) => setModel(e.currentTarget.value)} />
      </label>
      <div class="toolbar">
        <button
          type="button"
          class="primary"
          data-testid="ask-accept"
          onClick={() =>
            answer(ask, { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' })
          }
        >
          Send
        </button>
        <button type="button" data-testid="ask-decline" onClick={() => answer(ask, { action: 'decline' })}>
          Decline
        </button>
      </div>
    </div>
  );
}
