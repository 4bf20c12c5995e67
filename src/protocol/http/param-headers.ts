// Tool parameters mirrored into headers (2026-07-28, basic/transports/streamable-http#x-mcp-header): a
// property of a tool's inputSchema marked `"x-mcp-header": "Region"` travels as `Mcp-Param-Region` on the
// POST of each tools/call, so gateways can route on it. The client writes the headers; the server checks
// them against the arguments. Both read the annotations the same way, here.

import { decodeHeaderValue, encodeHeaderValue } from './metadata-headers.js';

export interface ParamHeader {
  /** The name part: the header is `Mcp-Param-${name}`. */
  name: string;
  /** The chain of `properties` keys from the schema's root to the annotated property. */
  path: string[];
  type: 'string' | 'integer' | 'boolean';
}

const KEY = 'x-mcp-header';
/** RFC 9110 tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The annotated parameters of an inputSchema, or why the annotations make the tool invalid. */
export function paramHeadersOf(inputSchema: unknown): { headers: ParamHeader[] } | { error: string } {
  const headers: ParamHeader[] = [];
  const seen = new Set<string>();
  const walk = (schema: Obj, path: string[]): string | undefined => {
    const properties = schema.properties;
    if (!isObject(properties)) return undefined;
    for (const [key, property] of Object.entries(properties)) {
      if (!isObject(property)) continue;
      const at = [...path, key];
      if (KEY in property) {
        const name = property[KEY];
        if (typeof name !== 'string' || !TOKEN.test(name)) {
          return `${KEY} of "${at.join('.')}" must be a non-empty HTTP token, not ${JSON.stringify(name)}`;
        }
        if (seen.has(name.toLowerCase()))
          return `${KEY} "${name}" is used twice (names are case-insensitive)`;
        seen.add(name.toLowerCase());
        const type = property.type;
        if (type !== 'string' && type !== 'integer' && type !== 'boolean') {
          return `${KEY} "${name}" is on "${at.join('.')}" of type ${JSON.stringify(type)}; only string, integer and boolean parameters can be headers`;
        }
        headers.push({ name, path: at, type });
      }
      const nested = walk(property, at);
      if (nested) return nested;
    }
    return undefined;
  };
  if (!isObject(inputSchema)) return { headers };
  const error = walk(inputSchema, []);
  if (error) return { error };
  // Anywhere but a chain of `properties` (items, anyOf, $defs...) the annotation is not allowed.
  if (countAnnotations(inputSchema) !== headers.length) {
    return {
      error: `${KEY} may only mark properties reached through "properties" alone (not items, anyOf, $ref...)`,
    };
  }
  return { headers };
}

function countAnnotations(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + countAnnotations(item), 0);
  if (!isObject(value)) return 0;
  let n = KEY in value ? 1 : 0;
  for (const [key, child] of Object.entries(value)) if (key !== KEY) n += countAnnotations(child);
  return n;
}

/** The header text of an argument, or undefined when there is none to send (absent, null, not primitive). */
export function paramValue(value: unknown): string | undefined {
  if (typeof value === 'string') return encodeHeaderValue(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return value;
}

/** The Mcp-Param-* headers a client sends with a tools/call of these arguments. */
export function paramHeaders(params: readonly ParamHeader[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const value = paramValue(valueAt(args, param.path));
    if (value !== undefined) headers[`Mcp-Param-${param.name}`] = value;
  }
  return headers;
}

/** Why the Mcp-Param-* headers of a request do not match its arguments, or undefined when they do. */
export function paramHeaderMismatch(
  params: readonly ParamHeader[],
  args: unknown,
  header: (name: string) => string | undefined,
): string | undefined {
  for (const param of params) {
    const body = valueAt(args, param.path);
    const raw = header(`mcp-param-${param.name.toLowerCase()}`);
    const expected = paramValue(body);
    if (expected === undefined) {
      if (raw !== undefined)
        return `Mcp-Param-${param.name} is sent, but arguments.${param.path.join('.')} has no value`;
      continue;
    }
    if (raw === undefined)
      return `the Mcp-Param-${param.name} header is missing (arguments.${param.path.join('.')} is set)`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined)
      return `Mcp-Param-${param.name} header value '${raw}' is not valid base64 inside =?base64?…?=`;
    // Integers compare as numbers ("42.0" is 42); everything else as text.
    const same =
      typeof body === 'number' ? decoded.trim() !== '' && Number(decoded) === body : decoded === String(body);
    if (!same) {
      return `Mcp-Param-${param.name} header value '${decoded}' does not match body value ${JSON.stringify(body)}`;
    }
  }
  return undefined;
}
