// From a JSON Schema to a form and back: what fields a schema asks for (nested objects, arrays, enums,
// $ref, defaults, required), the draft a person types into, and the JSON value it becomes, with every
// problem found before anything is sent. Pure logic, no DOM: the page renders it, the tests call it.

export type JsonSchema = { [key: string]: unknown };

/** What a person types: text for strings and numbers, '' / 'true' / 'false', an option's index. */
export type Draft = string | Draft[] | { [key: string]: Draft } | boolean[];

export interface FieldError {
  /** Where: property names and item indexes, e.g. ['address', 'lines', 0]; [] is the whole value. */
  path: Array<string | number>;
  message: string;
}

export type FieldKind =
  | 'object'
  | 'array'
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'multi'
  | 'json';

export interface EnumOption {
  value: unknown;
  label: string;
}

const MAX_DEPTH = 16;

/** The schema with its $ref followed (within the root document) and sibling keywords kept. */
export function resolve(schema: unknown, root: unknown, depth = 0): JsonSchema {
  if (typeof schema === 'boolean') return schema ? {} : { not: {} };
  if (typeof schema !== 'object' || schema === null) return {};
  let current = schema as JsonSchema;
  let hops = 0;
  while (typeof current.$ref === 'string' && hops++ < MAX_DEPTH) {
    const target = pointer(root, current.$ref);
    const { $ref: _ref, ...rest } = current;
    current = { ...(target ?? {}), ...rest };
    if (!target) return { ...rest, 'x-unresolved': _ref };
  }
  if (Array.isArray(current.allOf) && depth < MAX_DEPTH) {
    // allOf of object parts: one object with every part's properties and required names.
    const parts = (current.allOf as unknown[]).map((part) => resolve(part, root, depth + 1));
    if (parts.every((p) => kindOf(p) === 'object')) {
      const { allOf: _all, ...rest } = current;
      let merged: JsonSchema = { ...rest, type: 'object' };
      for (const part of parts) {
        merged = {
          ...part,
          ...merged,
          properties: { ...(part.properties as object), ...(merged.properties as object) },
          required: [...((merged.required as string[]) ?? []), ...((part.required as string[]) ?? [])],
        };
      }
      return merged;
    }
  }
  return current;
}

function pointer(root: unknown, ref: string): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' && node !== null ? (node as JsonSchema) : undefined;
}

/** The type a schema names, without "null" (["string", "null"] is a string that may be left out). */
function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const named = type.filter((t) => t !== 'null');
    return named.length === 1 ? (named[0] as string) : undefined;
  }
  return undefined;
}

export function kindOf(schema: JsonSchema): FieldKind {
  if (enumOptions(schema)) return 'enum';
  const type = typeOf(schema);
  if (type === 'array' && schema.items && enumOptions(asSchema(schema.items))) return 'multi';
  if (type === 'object' || (type === undefined && typeof schema.properties === 'object')) return 'object';
  if (type === 'array') return 'array';
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return type;
  return 'json';
}

function asSchema(value: unknown): JsonSchema {
  return typeof value === 'object' && value !== null ? (value as JsonSchema) : {};
}

/** The choices of an enum (enum, with enumNames for labels; or oneOf/anyOf of consts with titles). */
export function enumOptions(schema: JsonSchema): EnumOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? (schema.enumNames as unknown[]) : [];
    return schema.enum.map((value, i) => ({
      value,
      label: typeof names[i] === 'string' ? (names[i] as string) : String(value),
    }));
  }
  if (schema.const !== undefined) return [{ value: schema.const, label: String(schema.const) }];
  const choices = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(choices) && choices.length > 0 && choices.every((c) => asSchema(c).const !== undefined)) {
    return choices.map((c) => {
      const choice = asSchema(c);
      return {
        value: choice.const,
        label: typeof choice.title === 'string' ? choice.title : String(choice.const),
      };
    });
  }
  return undefined;
}

export function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}

export function propertiesOf(schema: JsonSchema): Array<[string, unknown]> {
  return Object.entries(asSchema(schema.properties));
}

/** The draft a fresh form starts from: the schema's defaults, everything else empty. */
export function initialDraft(schemaIn: unknown, root: unknown, depth = 0): Draft {
  const schema = resolve(schemaIn, root);
  if (schema.default !== undefined) return draftOf(schema, schema.default, root, depth);
  const kind = kindOf(schema);
  if (kind === 'object') {
    const draft: { [key: string]: Draft } = {};
    if (depth < MAX_DEPTH)
      for (const [name, property] of propertiesOf(schema))
        draft[name] = initialDraft(property, root, depth + 1);
    return draft;
  }
  if (kind === 'multi') return (enumOptions(asSchema(resolve(schema.items, root))) ?? []).map(() => false);
  if (kind === 'array') return [];
  return '';
}

/** The draft that shows a value (a default, or a value to edit again). */
export function draftOf(schemaIn: unknown, value: unknown, root: unknown, depth = 0): Draft {
  const schema = resolve(schemaIn, root);
  const kind = kindOf(schema);
  switch (kind) {
    case 'enum': {
      const index = (enumOptions(schema) ?? []).findIndex((o) => sameJson(o.value, value));
      return index === -1 ? '' : String(index);
    }
    case 'multi': {
      const options = enumOptions(asSchema(resolve(schema.items, root))) ?? [];
      const chosen = Array.isArray(value) ? value : [];
      return options.map((o) => chosen.some((c) => sameJson(c, o.value)));
    }
    case 'object': {
      const record = asSchema(value);
      const draft: { [key: string]: Draft } = {};
      if (depth < MAX_DEPTH)
        for (const [name, property] of propertiesOf(schema))
          draft[name] =
            record[name] === undefined
              ? initialDraft(property, root, depth + 1)
              : draftOf(property, record[name], root, depth + 1);
      return draft;
    }
    case 'array':
      return Array.isArray(value) ? value.map((item) => draftOf(schema.items, item, root, depth + 1)) : [];
    case 'boolean':
      return value === true ? 'true' : value === false ? 'false' : '';
    case 'json':
      return value === undefined ? '' : JSON.stringify(value, null, 2);
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

/**
 * The JSON value a draft stands for, and every problem with it: what cannot be converted (text in a
 * number field, JSON that does not parse) and whatever the schema forbids (required, ranges, patterns).
 * `undefined` is a value left out.
 */
export function collect(
  schemaIn: unknown,
  draft: Draft,
  root: unknown,
): { value: unknown; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const value = convert(schemaIn, draft, root, [], errors, 0);
  if (errors.length === 0) errors.push(...validate(schemaIn, value, root));
  return { value, errors };
}

function convert(
  schemaIn: unknown,
  draft: Draft,
  root: unknown,
  path: Array<string | number>,
  errors: FieldError[],
  depth: number,
): unknown {
  const schema = resolve(schemaIn, root);
  const kind = kindOf(schema);
  switch (kind) {
    case 'object': {
      const record = typeof draft === 'object' && !Array.isArray(draft) ? draft : {};
      const value: Record<string, unknown> = {};
      for (const [name, property] of propertiesOf(schema)) {
        const part = record[name];
        if (part === undefined || depth >= MAX_DEPTH) continue;
        const converted = convert(property, part, root, [...path, name], errors, depth + 1);
        if (converted !== undefined) value[name] = converted;
      }
      // An optional object left empty is left out; the top level is always an object.
      if (Object.keys(value).length === 0 && path.length > 0 && !hasRequired(schema)) return undefined;
      return value;
    }
    case 'array': {
      const items = Array.isArray(draft) ? (draft as Draft[]) : [];
      return items.map((item, i) => {
        const converted = convert(schema.items, item, root, [...path, i], errors, depth + 1);
        if (converted === undefined) errors.push({ path: [...path, i], message: 'this item is empty' });
        return converted;
      });
    }
    case 'multi': {
      const options = enumOptions(asSchema(resolve(schema.items, root))) ?? [];
      const chosen = Array.isArray(draft) ? draft : [];
      return options.filter((_, i) => chosen[i] === true).map((o) => o.value);
    }
    case 'enum': {
      if (draft === '' || typeof draft !== 'string') return undefined;
      return (enumOptions(schema) ?? [])[Number(draft)]?.value;
    }
    case 'boolean':
      return draft === 'true' ? true : draft === 'false' ? false : undefined;
    case 'number':
    case 'integer': {
      const text = typeof draft === 'string' ? draft.trim() : '';
      if (text === '') return undefined;
      const number = Number(text);
      if (!Number.isFinite(number)) {
        errors.push({ path, message: `"${text}" is not a number` });
        return undefined;
      }
      return number;
    }
    case 'string':
      return typeof draft === 'string' && draft !== '' ? draft : undefined;
    case 'json': {
      const text = typeof draft === 'string' ? draft.trim() : '';
      if (text === '') return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        errors.push({ path, message: `not JSON: ${(error as Error).message}` });
        return undefined;
      }
    }
  }
}

function hasRequired(schema: JsonSchema): boolean {
  return requiredOf(schema).length > 0;
}

/** Everything `value` breaks of `schema`: the common keywords of JSON Schema, enough for forms and results. */
export function validate(
  schemaIn: unknown,
  value: unknown,
  root: unknown,
  path: Array<string | number> = [],
  depth = 0,
): FieldError[] {
  const schema = resolve(schemaIn, root);
  const errors: FieldError[] = [];
  const fail = (message: string, at = path) => errors.push({ path: at, message });
  if (value === undefined) return errors;
  if (depth > MAX_DEPTH * 4) return errors;
  if (schema.not !== undefined && Object.keys(asSchema(schema.not)).length === 0)
    fail('no value is allowed here');
  const types =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  if (types.length > 0 && !types.some((t) => hasType(value, t as string)))
    fail(`must be ${types.join(' or ')}, not ${jsonType(value)}`);
  const options = enumOptions(schema);
  if (
    options &&
    (Array.isArray(schema.enum) || schema.const !== undefined) &&
    !options.some((o) => sameJson(o.value, value))
  )
    fail(`must be one of ${options.map((o) => JSON.stringify(o.value)).join(', ')}`);
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && [...value].length < schema.minLength)
      fail(`must be at least ${schema.minLength} characters`);
    if (typeof schema.maxLength === 'number' && [...value].length > schema.maxLength)
      fail(`must be at most ${schema.maxLength} characters`);
    if (typeof schema.pattern === 'string') {
      try {
        if (!new RegExp(schema.pattern, 'u').test(value)) fail(`must match ${schema.pattern}`);
      } catch {
        // A pattern the browser cannot read is the server's to check.
      }
    }
    const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
    if (format && !format.test(value))
      fail(`must be ${schema.format === 'email' ? 'an email address' : `a ${schema.format}`}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      fail(`must be at least ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      fail(`must be at most ${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
      fail(`must be more than ${schema.exclusiveMinimum}`);
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
      fail(`must be less than ${schema.exclusiveMaximum}`);
    if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0) {
      const ratio = value / schema.multipleOf;
      if (Math.abs(ratio - Math.round(ratio)) > 1e-9) fail(`must be a multiple of ${schema.multipleOf}`);
    }
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      fail(`needs at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      fail(`takes at most ${schema.maxItems} item${schema.maxItems === 1 ? '' : 's'}`);
    if (schema.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
      fail('items must be unique');
    if (schema.items !== undefined && !Array.isArray(schema.items))
      for (const [i, item] of value.entries())
        errors.push(...validate(schema.items, item, root, [...path, i], depth + 1));
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const name of requiredOf(schema)) if (record[name] === undefined) fail('required', [...path, name]);
    const properties = asSchema(schema.properties);
    for (const [name, item] of Object.entries(record)) {
      if (name in properties)
        errors.push(...validate(properties[name], item, root, [...path, name], depth + 1));
      else if (schema.additionalProperties === false) fail(`"${name}" is not allowed here`);
      else if (typeof schema.additionalProperties === 'object')
        errors.push(...validate(schema.additionalProperties, item, root, [...path, name], depth + 1));
    }
  }
  if (Array.isArray(schema.anyOf) && !options) {
    if (!schema.anyOf.some((part) => validate(part, value, root, path, depth + 1).length === 0))
      fail('matches none of the allowed shapes (anyOf)');
  }
  if (Array.isArray(schema.oneOf) && !options) {
    const matching = schema.oneOf.filter((part) => validate(part, value, root, path, depth + 1).length === 0);
    if (matching.length !== 1)
      fail(
        matching.length === 0
          ? 'matches none of the allowed shapes (oneOf)'
          : 'matches more than one shape (oneOf)',
      );
  }
  if (Array.isArray(schema.allOf))
    for (const part of schema.allOf) errors.push(...validate(part, value, root, path, depth + 1));
  return errors;
}

const FORMATS: Record<string, RegExp> = {
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
};

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A path as the form shows it: address.lines[0]. */
export function formatPath(path: Array<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** Changes the draft at `path` (a new draft; the old one is left as it was). */
export function setAt(draft: Draft, path: Array<string | number>, next: Draft): Draft {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (Array.isArray(draft)) {
    const copy = [...(draft as Draft[])];
    copy[head as number] = setAt(copy[head as number] ?? '', rest, next);
    return copy as Draft;
  }
  const record = typeof draft === 'object' ? draft : {};
  return { ...record, [head as string]: setAt(record[head as string] ?? '', rest, next) };
}
