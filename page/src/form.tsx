// A form for a JSON Schema (schema-form.ts says what it holds): one field per property, nested objects as
// groups, arrays with add and remove, enums as choices, and each field's problem shown beside it.

import {
  type Draft,
  draftOf,
  enumOptions,
  type FieldError,
  formatPath,
  initialDraft,
  kindOf,
  propertiesOf,
  requiredOf,
  resolve,
  setAt,
} from './schema-form';

interface FieldProps {
  schema: unknown;
  root: unknown;
  draft: Draft;
  path: Array<string | number>;
  required: boolean;
  label: string;
  errors: FieldError[];
  onChange: (path: Array<string | number>, next: Draft) => void;
  /** Suggestions for a field (completion), by its path. */
  suggest?: (path: Array<string | number>, value: string) => void;
  suggestions?: Record<string, string[]>;
}

export function SchemaForm(props: {
  schema: unknown;
  draft: Draft;
  errors: FieldError[];
  onDraft: (draft: Draft) => void;
  suggest?: FieldProps['suggest'];
  suggestions?: FieldProps['suggestions'];
}) {
  const root = props.schema;
  return (
    <div class="form" data-testid="schema-form">
      <Field
        schema={props.schema}
        root={root}
        draft={props.draft}
        path={[]}
        required
        label=""
        errors={props.errors}
        onChange={(path, next) => props.onDraft(setAt(props.draft, path, next))}
        suggest={props.suggest}
        suggestions={props.suggestions}
      />
    </div>
  );
}

function errorsAt(errors: FieldError[], path: Array<string | number>): FieldError[] {
  const key = formatPath(path);
  return errors.filter((e) => formatPath(e.path) === key);
}

function Field(props: FieldProps) {
  const schema = resolve(props.schema, props.root);
  const kind = kindOf(schema);
  const name = formatPath(props.path) || 'value';
  const own = errorsAt(props.errors, props.path);
  const description = typeof schema.description === 'string' ? schema.description : '';
  const title = props.label || (typeof schema.title === 'string' ? schema.title : '');
  const label = title ? (
    <span class="label">
      {title}
      {props.required ? <b class="req"> *</b> : null}
    </span>
  ) : null;
  const problems = own.map((e) => (
    <div class="field-error" role="alert" data-field={name}>
      {e.message}
    </div>
  ));
  if (kind === 'object') {
    const required = requiredOf(schema);
    const draft = typeof props.draft === 'object' && !Array.isArray(props.draft) ? props.draft : {};
    const children = propertiesOf(schema).map(([key, property]) => (
      <Field
        {...props}
        key={key}
        schema={property}
        draft={draft[key] ?? initialDraft(property, props.root)}
        path={[...props.path, key]}
        required={required.includes(key)}
        label={key}
      />
    ));
    if (props.path.length === 0)
      return (
        <div class="object root">
          {children.length === 0 ? <p class="muted">No arguments.</p> : children}
          {problems}
        </div>
      );
    return (
      <fieldset class="object" data-field={name}>
        <legend>{label}</legend>
        {description ? <div class="desc">{description}</div> : null}
        {children}
        {problems}
      </fieldset>
    );
  }
  if (kind === 'array') {
    const items = Array.isArray(props.draft) ? (props.draft as Draft[]) : [];
    return (
      <fieldset class="array" data-field={name}>
        <legend>{label}</legend>
        {description ? <div class="desc">{description}</div> : null}
        {items.map((item, i) => (
          <div class="item" key={i}>
            <Field
              {...props}
              schema={schema.items}
              draft={item}
              path={[...props.path, i]}
              required
              label={`${i + 1}`}
            />
            <button
              type="button"
              class="small"
              title="remove this item"
              onClick={() => props.onChange(props.path, items.filter((_, j) => j !== i) as Draft)}
            >
              ✕
            </button>
          </div>
        ))}
        <button
          type="button"
          class="small"
          data-add={name}
          onClick={() =>
            props.onChange(props.path, [...items, initialDraft(schema.items, props.root)] as Draft)
          }
        >
          + add
        </button>
        {problems}
      </fieldset>
    );
  }
  let input: preact.JSX.Element;
  const text = typeof props.draft === 'string' ? props.draft : '';
  const set = (value: Draft) => props.onChange(props.path, value);
  if (kind === 'enum') {
    const options = enumOptions(schema) ?? [];
    input = (
      <select name={name} value={text} onChange={(e) => set(e.currentTarget.value)}>
        <option value="">{props.required ? '— choose —' : '— none —'}</option>
        {options.map((o, i) => (
          <option value={String(i)}>{o.label}</option>
        ))}
      </select>
    );
  } else if (kind === 'multi') {
    const options = enumOptions(resolve(schema.items, props.root)) ?? [];
    const chosen = Array.isArray(props.draft) ? (props.draft as boolean[]) : [];
    input = (
      <span class="multi">
        {options.map((o, i) => (
          <label>
            <input
              type="checkbox"
              name={`${name}[${i}]`}
              checked={chosen[i] === true}
              onChange={(e) => {
                const next = options.map((_, j) => chosen[j] === true);
                next[i] = e.currentTarget.checked;
                set(next);
              }}
            />
            {o.label}
          </label>
        ))}
      </span>
    );
  } else if (kind === 'boolean') {
    input = (
      <select name={name} value={text} onChange={(e) => set(e.currentTarget.value)}>
        <option value="">—</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  } else if (kind === 'json') {
    input = (
      <textarea
        name={name}
        rows={3}
        placeholder="JSON"
        value={text}
        onInput={(e) => set(e.currentTarget.value)}
      />
    );
  } else {
    const list = props.suggestions?.[name];
    input = (
      <span class="with-list">
        <input
          name={name}
          type="text"
          inputMode={kind === 'string' ? undefined : 'decimal'}
          value={text}
          list={list ? `list-${name}` : undefined}
          placeholder={kind === 'string' ? (typeof schema.format === 'string' ? schema.format : '') : kind}
          onInput={(e) => {
            set(e.currentTarget.value);
            props.suggest?.(props.path, e.currentTarget.value);
          }}
        />
        {list ? (
          <datalist id={`list-${name}`}>
            {list.map((v) => (
              <option value={v} />
            ))}
          </datalist>
        ) : null}
      </span>
    );
  }
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is `input`, chosen above by the field's kind
    <label class={`field ${own.length ? 'invalid' : ''}`} data-field={name}>
      {label}
      {input}
      {description ? <span class="desc">{description}</span> : null}
      {problems}
    </label>
  );
}

export { draftOf, initialDraft };
