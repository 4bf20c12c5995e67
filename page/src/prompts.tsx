// Prompts: their arguments (with completion from the server), and the messages a prompt gives.

import { useRef, useState } from 'preact/hooks';
import { post } from './api';
import { type Block, Contents } from './content';
import { useStore } from './store';
import type { Prompt } from './types';

export function PromptsView() {
  const store = useStore();
  const prompts = store.state?.prompts ?? [];
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const prompt = prompts.find((p) => p.name === chosen);
  return (
    <div class="split">
      <div class="side scroll">
        {prompts.map((p) => (
          <button
            type="button"
            class={`pick ${p.name === chosen ? 'chosen' : ''}`}
            data-prompt={p.originalName}
            onClick={() => setChosen(p.name)}
          >
            <b>{p.title ?? p.originalName}</b>
            <span class="muted">{p.server}</span>
          </button>
        ))}
      </div>
      <div class="main">
        {prompt ? <PromptPanel key={prompt.name} prompt={prompt} /> : <p class="muted">Choose a prompt.</p>}
      </div>
    </div>
  );
}

function PromptPanel({ prompt }: { prompt: Prompt }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [suggestions, setSuggestions] = useState<Record<string, string[]>>({});
  const [missing, setMissing] = useState<string[]>([]);
  const [result, setResult] = useState<
    { description?: string; messages: Array<{ role: string; content: Block }> } | undefined
  >();
  const [error, setError] = useState('');
  const asked = useRef(0);
  const complete = async (name: string, value: string) => {
    // Only the answer to the latest question counts: an earlier one may come back later.
    const question = ++asked.current;
    try {
      const answer = await post<{ completion: { values: string[] } }>('complete', {
        server: prompt.server,
        ref: { type: 'ref/prompt', name: prompt.originalName },
        argument: { name, value },
        context: { arguments: values },
      });
      if (question === asked.current) setSuggestions((s) => ({ ...s, [name]: answer.completion.values }));
    } catch {
      // No completion for this argument.
    }
  };
  const get = async () => {
    const absent = (prompt.arguments ?? []).filter((a) => a.required && !values[a.name]).map((a) => a.name);
    setMissing(absent);
    if (absent.length > 0) return;
    setError('');
    try {
      setResult(
        await post('prompt', { server: prompt.server, name: prompt.originalName, arguments: values }),
      );
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div class="panel" data-testid="prompt-panel">
      <h2>{prompt.title ?? prompt.originalName}</h2>
      {prompt.description ? <p class="desc">{prompt.description}</p> : null}
      {(prompt.arguments ?? []).map((a) => (
        <label class={`field ${missing.includes(a.name) ? 'invalid' : ''}`}>
          <span class="label">
            {a.name}
            {a.required ? <b class="req"> *</b> : null}
          </span>
          <input
            name={a.name}
            list={`prompt-${a.name}`}
            value={values[a.name] ?? ''}
            onInput={(e) => {
              const value = e.currentTarget.value;
              setValues((v) => ({ ...v, [a.name]: value }));
              void complete(a.name, value);
            }}
          />
          <datalist id={`prompt-${a.name}`}>
            {(suggestions[a.name] ?? []).map((v) => (
              <option value={v} />
            ))}
          </datalist>
          {a.description ? <span class="desc">{a.description}</span> : null}
          {missing.includes(a.name) ? <div class="field-error">required</div> : null}
        </label>
      ))}
      <button type="button" class="primary" onClick={get} data-testid="get-prompt">
        Get
      </button>
      {error ? <div class="bad">{error}</div> : null}
      {result ? (
        <div class="result" data-testid="prompt-result">
          {result.messages.map((m) => (
            <div class="message">
              <b>{m.role}</b>
              <Contents blocks={[m.content]} />
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
