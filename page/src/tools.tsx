// Tools: the list (filtered, virtualised), a form made from the chosen tool's input schema, the call with
// its progress and a cancel button, and the result by content type.

import { useMemo, useState } from 'preact/hooks';
import { post } from './api';
import { type Block, Contents, Structured } from './content';
import { SchemaForm } from './form';
import { collect, type Draft, type FieldError, initialDraft } from './schema-form';
import { useStore } from './store';
import type { Tool } from './types';
import { VirtualList } from './virtual-list';

export function filterTools(tools: Tool[], text: string): Tool[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return tools;
  return tools.filter(
    (t) =>
      t.name.toLowerCase().includes(needle) ||
      (t.title ?? '').toLowerCase().includes(needle) ||
      (t.description ?? '').toLowerCase().includes(needle),
  );
}

export function ToolsView(props: { onRead: (server: string, uri: string) => void }) {
  const store = useStore();
  const tools = store.state?.tools ?? [];
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const shown = useMemo(() => filterTools(tools, filter), [tools, filter]);
  const tool = tools.find((t) => t.name === chosen);
  return (
    <div class="split">
      <div class="side">
        <input
          class="filter"
          placeholder={`Filter ${tools.length} tools`}
          value={filter}
          data-testid="tool-filter"
          onInput={(e) => setFilter(e.currentTarget.value)}
        />
        <VirtualList
          count={shown.length}
          rowHeight={44}
          testId="tool-list"
          row={(i) => {
            const t = shown[i]!;
            return (
              <button
                type="button"
                class={`pick ${t.name === chosen ? 'chosen' : ''}`}
                data-tool={t.name}
                onClick={() => setChosen(t.name)}
              >
                <b>{t.title ?? t.originalName}</b>
                <span class="muted">
                  {t.server} · {t.originalName}
                </span>
              </button>
            );
          }}
        />
      </div>
      <div class="main">
        {tool ? (
          <ToolPanel key={tool.name} tool={tool} onRead={props.onRead} />
        ) : (
          <p class="muted">Choose a tool.</p>
        )}
      </div>
    </div>
  );
}

interface CallResult {
  result: { content?: Block[]; structuredContent?: unknown; isError?: boolean };
  output?: { valid: boolean; issues: string[] };
}

let nextCall = 1;

function ToolPanel({ tool, onRead }: { tool: Tool; onRead: (server: string, uri: string) => void }) {
  const store = useStore();
  const schema = tool.inputSchema ?? { type: 'object' };
  const [draft, setDraft] = useState<Draft>(() => initialDraft(schema, schema));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [raw, setRaw] = useState<string | undefined>(undefined);
  const [callId, setCallId] = useState<string | undefined>(undefined);
  const [outcome, setOutcome] = useState<CallResult | { error: string } | undefined>(undefined);
  const progress = callId ? store.progress.get(callId) : undefined;

  const call = async () => {
    let args: unknown;
    if (raw !== undefined) {
      try {
        args = JSON.parse(raw || '{}');
      } catch (error) {
        setErrors([{ path: [], message: `the arguments are not JSON: ${(error as Error).message}` }]);
        return;
      }
    } else {
      const collected = collect(schema, draft, schema);
      setErrors(collected.errors);
      if (collected.errors.length > 0) return;
      args = collected.value ?? {};
    }
    setErrors([]);
    const id = `call-${nextCall++}`;
    setCallId(id);
    setOutcome(undefined);
    try {
      setOutcome(
        await post<CallResult>('call', {
          server: tool.server,
          name: tool.originalName,
          arguments: args,
          callId: id,
        }),
      );
    } catch (error) {
      setOutcome({ error: (error as Error).message });
    } finally {
      setCallId(undefined);
    }
  };

  return (
    <div class="panel" data-testid="tool-panel">
      <h2>
        {tool.title ?? tool.originalName} <span class="muted">{tool.server}</span>
      </h2>
      {tool.description ? <p class="desc">{tool.description}</p> : null}
      <div class="toolbar">
        <label>
          <input
            type="checkbox"
            checked={raw !== undefined}
            onChange={(e) => {
              if (e.currentTarget.checked)
                setRaw(JSON.stringify(collect(schema, draft, schema).value ?? {}, null, 2));
              else setRaw(undefined);
            }}
          />{' '}
          edit as JSON
        </label>
      </div>
      {raw !== undefined ? (
        <textarea
          class="json"
          rows={10}
          value={raw}
          data-testid="raw-args"
          onInput={(e) => setRaw(e.currentTarget.value)}
        />
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
      {errors.length > 0 ? (
        <div class="bad" data-testid="form-errors">
          Not sent: {errors.length} problem{errors.length === 1 ? '' : 's'} to fix.
          {raw !== undefined ? ` ${errors[0]!.message}` : ''}
        </div>
      ) : null}
      <div class="toolbar">
        <button
          type="button"
          class="primary"
          data-testid="call"
          disabled={callId !== undefined}
          onClick={call}
        >
          Call
        </button>
        {callId ? (
          <button type="button" data-testid="cancel" onClick={() => void post('cancel', { callId })}>
            Cancel
          </button>
        ) : null}
        {callId ? <span class="muted">running…</span> : null}
      </div>
      {callId && progress ? (
        <div class="progress" data-testid="progress">
          <progress value={progress.progress} max={progress.total ?? undefined} />{' '}
          <span>
            {progress.progress}
            {progress.total !== undefined ? ` / ${progress.total}` : ''} {progress.message ?? ''}
          </span>
        </div>
      ) : null}
      {outcome ? <Outcome outcome={outcome} onOpen={(uri) => onRead(tool.server, uri)} /> : null}
    </div>
  );
}

function Outcome({
  outcome,
  onOpen,
}: {
  outcome: CallResult | { error: string };
  onOpen: (uri: string) => void;
}) {
  if ('error' in outcome)
    return (
      <div class="result bad" data-testid="result" data-status="error">
        {outcome.error}
      </div>
    );
  const { result, output } = outcome;
  return (
    <div
      class={`result ${result.isError ? 'tool-error' : ''}`}
      data-testid="result"
      data-status={result.isError ? 'tool-error' : 'ok'}
    >
      {result.isError ? <div class="bad">The tool reported an error.</div> : null}
      <Contents blocks={result.content ?? []} onOpen={onOpen} />
      {result.structuredContent !== undefined || output ? (
        <Structured value={result.structuredContent} check={output} />
      ) : null}
    </div>
  );
}
