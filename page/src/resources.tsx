// Resources and resource templates: read one (or a template filled in, with completion for its
// variables), subscribe to it and see its updates arrive.

import { useRef, useState } from 'preact/hooks';
import { post } from './api';
import { type Block, ResourceContents } from './content';
import { store as shared, useStore } from './store';
import { fillTemplate, templateVariables } from './uri-template';

export function ResourcesView(props: { opened?: { server: string; uri: string } }) {
  const store = useStore();
  const resources = store.state?.resources ?? [];
  const templates = (store.state?.servers ?? []).flatMap((s) =>
    (s.templates ?? []).map((t) => ({ ...t, server: s.name })),
  );
  const [current, setCurrent] = useState<{ server: string; uri: string } | undefined>(props.opened);
  const [template, setTemplate] = useState<(typeof templates)[number] | undefined>(undefined);
  return (
    <div class="split">
      <div class="side scroll">
        <h3>Resources ({resources.length})</h3>
        {resources.map((r) => (
          <button
            type="button"
            class={`pick ${current?.uri === r.uri ? 'chosen' : ''}`}
            data-uri={r.uri}
            onClick={() => {
              setTemplate(undefined);
              setCurrent({ server: r.server, uri: r.uri });
            }}
          >
            <b>{r.title ?? r.name}</b>
            <span class="muted">{r.uri}</span>
          </button>
        ))}
        <h3>Templates ({templates.length})</h3>
        {templates.map((t) => (
          <button
            type="button"
            class={`pick ${template?.uriTemplate === t.uriTemplate ? 'chosen' : ''}`}
            data-template={t.uriTemplate}
            onClick={() => {
              setCurrent(undefined);
              setTemplate(t);
            }}
          >
            <b>{t.title ?? t.name}</b>
            <span class="muted">{t.uriTemplate}</span>
          </button>
        ))}
      </div>
      <div class="main">
        {template ? (
          <TemplateForm
            key={template.uriTemplate}
            server={template.server}
            template={template.uriTemplate}
            onRead={setCurrent}
          />
        ) : null}
        {current ? <Reader key={`${current.server} ${current.uri}`} {...current} /> : null}
        {!template && !current ? <p class="muted">Choose a resource or a template.</p> : null}
        <Updates />
      </div>
    </div>
  );
}

function TemplateForm(props: {
  server: string;
  template: string;
  onRead: (r: { server: string; uri: string }) => void;
}) {
  const names = templateVariables(props.template);
  const [values, setValues] = useState<Record<string, string>>({});
  const [suggestions, setSuggestions] = useState<Record<string, string[]>>({});
  const asked = useRef(0);
  const complete = async (name: string, value: string) => {
    // Only the answer to the latest question counts: an earlier one may come back later.
    const question = ++asked.current;
    try {
      const result = await post<{ completion: { values: string[] } }>('complete', {
        server: props.server,
        ref: { type: 'ref/resource', uri: props.template },
        argument: { name, value },
        context: { arguments: values },
      });
      if (question === asked.current) setSuggestions((s) => ({ ...s, [name]: result.completion.values }));
    } catch {
      // A server without completion: nothing to suggest.
    }
  };
  return (
    <div class="panel" data-testid="template-form">
      <h2>{props.template}</h2>
      {names.map((name) => (
        <label class="field">
          <span class="label">{name}</span>
          <input
            name={name}
            list={`complete-${name}`}
            value={values[name] ?? ''}
            onFocus={(e) => void complete(name, e.currentTarget.value)}
            onInput={(e) => {
              const value = e.currentTarget.value;
              setValues((v) => ({ ...v, [name]: value }));
              void complete(name, value);
            }}
          />
          <datalist id={`complete-${name}`} data-testid={`completions-${name}`}>
            {(suggestions[name] ?? []).map((v) => (
              <option value={v} />
            ))}
          </datalist>
        </label>
      ))}
      <button
        type="button"
        class="primary"
        onClick={() => props.onRead({ server: props.server, uri: fillTemplate(props.template, values) })}
      >
        Read {fillTemplate(props.template, values)}
      </button>
    </div>
  );
}

function Reader(props: { server: string; uri: string }) {
  const store = useStore();
  const [contents, setContents] = useState<Block[] | undefined>(undefined);
  const [error, setError] = useState('');
  const key = `${props.server} ${props.uri}`;
  const confirmed = store.state?.subscribed.includes(key) ?? false;
  // What the person chose is shown at once; the session's state confirms it a moment later.
  const [wanted, setWanted] = useState<boolean | undefined>(undefined);
  if (wanted !== undefined && wanted === confirmed) setWanted(undefined);
  const subscribed = wanted ?? confirmed;
  const canSubscribe = store.state?.servers.find((s) => s.name === props.server)?.capabilities?.resources as
    | { subscribe?: boolean }
    | undefined;
  const read = async () => {
    setError('');
    try {
      const result = await post<{ contents: Block[] }>('read', props);
      setContents(result.contents);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div class="panel" data-testid="resource-panel">
      <h2>{props.uri}</h2>
      <div class="toolbar">
        <button type="button" class="primary" data-testid="read" onClick={read}>
          Read
        </button>
        {canSubscribe?.subscribe ? (
          <label>
            <input
              type="checkbox"
              checked={subscribed}
              data-testid="subscribe"
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setWanted(on);
                post('subscribe', { ...props, subscribed: on }).catch((x: Error) => {
                  setWanted(undefined);
                  setError(x.message);
                });
              }}
            />{' '}
            subscribed
          </label>
        ) : null}
      </div>
      {error ? <div class="bad">{error}</div> : null}
      <div data-testid="resource-contents">
        {(contents ?? []).map((c) => (
          <ResourceContents resource={c} />
        ))}
      </div>
    </div>
  );
}

function Updates() {
  const updates = shared.updates.slice(-20).reverse();
  if (updates.length === 0) return null;
  return (
    <div class="panel" data-testid="updates">
      <h3>Updates</h3>
      {updates.map((u) => (
        <div>
          {new Date(u.at).toLocaleTimeString()} {u.server}: {u.uri} changed
        </div>
      ))}
    </div>
  );
}
