// RFC 6570 URI templates: expansion (levels 1 to 4) and the reverse, matching a URI against a template to
// read its variables, which is what resources/read of a templated resource needs.

import { decodeUtf8Exactly } from './exact-utf8.js';

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

interface VarSpec {
  name: string;
  explode: boolean;
  prefix: number | undefined;
}

interface Expression {
  operator: Operator;
  vars: VarSpec[];
}

type Part = string | Expression;

const OPERATORS: Record<
  Operator,
  { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }
> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

export type TemplateValue = string | string[] | undefined;

export class UriTemplate {
  private readonly parts: Part[];
  private matcher: { regex: RegExp; groups: Array<{ spec: VarSpec; operator: Operator }> } | undefined;

  constructor(readonly template: string) {
    this.parts = parse(template);
  }

  /** The names of every variable, in order. */
  get variableNames(): string[] {
    return this.parts.flatMap((p) => (typeof p === 'string' ? [] : p.vars.map((v) => v.name)));
  }

  expand(variables: Record<string, TemplateValue>): string {
    return this.parts
      .map((part) => (typeof part === 'string' ? part : expandExpression(part, variables)))
      .join('');
  }

  /**
   * The variables of `uri` if it matches the template, else undefined. Values are percent-decoded; an
   * escaped byte that is not part of valid UTF-8 comes back as U+DC80..U+DCFF (exact-utf8.ts).
   */
  match(uri: string): Record<string, string | string[]> | undefined {
    this.matcher ??= buildMatcher(this.parts);
    const found = this.matcher.regex.exec(uri);
    if (!found) return undefined;
    const result: Record<string, string | string[]> = {};
    let index = 1;
    for (const { spec, operator } of this.matcher.groups) {
      const raw = found[index++];
      if (raw === undefined) continue;
      const value = readValue(raw, spec, operator);
      if (value === undefined) return undefined;
      result[spec.name] = value;
    }
    return result;
  }
}

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open === -1) {
      parts.push(template.slice(i));
      break;
    }
    if (open > i) parts.push(template.slice(i, open));
    const close = template.indexOf('}', open);
    if (close === -1) throw new SyntaxError(`URI template "${template}" has an unclosed "{"`);
    let body = template.slice(open + 1, close);
    let operator: Operator = '';
    if (body.length > 0 && '+#./;?&'.includes(body[0]!)) {
      operator = body[0] as Operator;
      body = body.slice(1);
    }
    const vars = body.split(',').map((raw): VarSpec => {
      const explode = raw.endsWith('*');
      const name = explode ? raw.slice(0, -1) : raw;
      const colon = name.indexOf(':');
      if (colon !== -1) return { name: name.slice(0, colon), explode, prefix: Number(name.slice(colon + 1)) };
      return { name, explode, prefix: undefined };
    });
    if (vars.some((v) => !/^[A-Za-z0-9_.%]+$/.test(v.name))) {
      throw new SyntaxError(
        `URI template "${template}" has an invalid variable in "{${template.slice(open + 1, close)}}"`,
      );
    }
    parts.push({ operator, vars });
    i = close + 1;
  }
  return parts;
}

function encode(value: string, reserved: boolean): string {
  // Unreserved characters stay; with + and #, reserved characters and percent-escapes stay too.
  return reserved
    ? encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, '%$1')
    : encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function expandExpression(expression: Expression, variables: Record<string, TemplateValue>): string {
  const op = OPERATORS[expression.operator];
  const pieces: string[] = [];
  for (const spec of expression.vars) {
    const value = variables[spec.name];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (Array.isArray(value)) {
      if (spec.explode) {
        pieces.push(
          value
            .map((v) => (op.named ? `${spec.name}=${encode(v, op.reserved)}` : encode(v, op.reserved)))
            .join(op.sep),
        );
      } else {
        const joined = value.map((v) => encode(v, op.reserved)).join(',');
        pieces.push(op.named ? `${spec.name}=${joined}` : joined);
      }
      continue;
    }
    const text = spec.prefix !== undefined ? value.slice(0, spec.prefix) : value;
    const encoded = encode(text, op.reserved);
    if (op.named) pieces.push(encoded === '' ? `${spec.name}${op.ifEmpty}` : `${spec.name}=${encoded}`);
    else pieces.push(encoded);
  }
  return pieces.length === 0 ? '' : op.first + pieces.join(op.sep);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function buildMatcher(parts: Part[]): {
  regex: RegExp;
  groups: Array<{ spec: VarSpec; operator: Operator }>;
} {
  const groups: Array<{ spec: VarSpec; operator: Operator }> = [];
  let source = '^';
  for (const part of parts) {
    if (typeof part === 'string') {
      source += escapeRegex(part);
      continue;
    }
    const op = OPERATORS[part.operator];
    // What one value may contain: simple expansion stops at reserved characters, + and # do not.
    const stop = part.operator === '' ? ',' : part.operator === '/' ? '' : escapeRegex(op.sep);
    // A lone reserved variable ({+path}) has no separator to stop at: a "," is part of its value.
    const lone = part.vars.length === 1 && !part.vars[0]!.explode;
    const chunk = op.reserved ? (lone ? '[^#]*' : '[^#,]*') : `[^/?#${stop}]*`;
    if (part.operator === '?' || part.operator === '&') {
      // Query variables: each is optional, and they come in the template's order.
      for (const [index, spec] of part.vars.entries()) {
        const lead = index === 0 ? `[${escapeRegex(op.first)}&]` : '&';
        source += `(?:${lead}${escapeRegex(spec.name)}=([^&#]*))?`;
        groups.push({ spec, operator: part.operator });
      }
      continue;
    }
    for (const [index, spec] of part.vars.entries()) {
      const lead = index === 0 ? escapeRegex(op.first) : escapeRegex(op.sep);
      const body = spec.explode ? `(?:${chunk}(?:${escapeRegex(op.sep)}${chunk})*)` : chunk;
      source += part.vars.length > 1 || op.first ? `(?:${lead}(${body}))?` : `(${body})`;
      groups.push({ spec, operator: part.operator });
    }
  }
  return { regex: new RegExp(`${source}$`), groups };
}

/**
 * A value's percent-escapes decoded. Escaped bytes that are not UTF-8 (a file name on Linux) are kept
 * exactly, as U+DC80..U+DCFF (exact-utf8.ts), so that every URI a server lists can be read back; a "%"
 * that starts no escape makes the URI match nothing.
 */
function decode(text: string): string | undefined {
  if (/%(?![0-9A-Fa-f]{2})/.test(text)) return undefined;
  try {
    return decodeURIComponent(text);
  } catch {
    // Escaped bytes that are not UTF-8: decoded byte by byte below.
  }
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%') {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
      continue;
    }
    const code = text.codePointAt(i)!;
    if (code > 0xffff) i++;
    for (const byte of Buffer.from(String.fromCodePoint(code), 'utf8')) bytes.push(byte);
  }
  return decodeUtf8Exactly(Uint8Array.from(bytes));
}

function readValue(raw: string, spec: VarSpec, operator: Operator): string | string[] | undefined {
  const op = OPERATORS[operator];
  if (spec.explode) {
    const items = raw.split(op.sep).map(decode);
    return items.some((i) => i === undefined) ? undefined : (items as string[]);
  }
  return decode(raw);
}
