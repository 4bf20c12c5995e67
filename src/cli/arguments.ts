// Tool arguments on the command line: a JSON object (--args '{...}') or key=value pairs, which are checked
// against the tool's input schema and converted to the types it declares.

import { readFileSync } from 'node:fs';
import type { Tool } from '../protocol/types.js';
import { propertyTypes } from './schema-types.js';
import { UsageError } from './usage.js';

export function parseToolArguments(
  tool: Tool,
  json: string | undefined,
  pairs: string[],
): Record<string, unknown> {
  let args: Record<string, unknown> = {};
  if (json !== undefined) {
    const text = argumentsText(json);
    try {
      args = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new UsageError('--args must be a JSON object, e.g. --args \'{"path": "."}\'');
    }
  }
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new UsageError(
        `"${pair}" is not key=value`,
        `Arguments of ${tool.name}: ${Object.keys(properties).join(', ') || 'none'}`,
      );
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    const property = properties[key];
    if (!property) {
      throw new UsageError(
        `tool "${tool.name}" has no argument "${key}"`,
        `Its arguments: ${Object.keys(properties).join(', ') || 'none'}`,
      );
    }
    args[key] = convert(raw, propertyTypes(tool.inputSchema, property), key);
  }
  const required = (tool.inputSchema.required as string[] | undefined) ?? [];
  const missing = required.filter((name) => args[name] === undefined);
  if (missing.length > 0) {
    throw new UsageError(
      `tool "${tool.name}" needs ${missing.map((m) => `"${m}"`).join(', ')}`,
      `Example: ${missing.map((m) => `${m}=...`).join(' ')}`,
    );
  }
  return args;
}

function convert(raw: string, types: string[] | undefined, key: string): unknown {
  if (types === undefined) {
    // The schema does not say: a JSON object or array is sent as one, anything else as text.
    if (/^\s*[[{]/.test(raw)) {
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
    }
    return raw;
  }
  if (types.includes('string')) return raw;
  if (types.includes('integer') || types.includes('number')) {
    const value = Number(raw);
    if (raw.trim() === '' || Number.isNaN(value))
      throw new UsageError(`argument "${key}" must be a number, got "${raw}"`);
    if (types.includes('integer') && !types.includes('number') && !Number.isInteger(value)) {
      throw new UsageError(`argument "${key}" must be a whole number, got "${raw}"`);
    }
    return value;
  }
  if (types.includes('boolean')) {
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    throw new UsageError(`argument "${key}" must be true or false, got "${raw}"`);
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new UsageError(`argument "${key}" must be JSON (${types.join('|')}), got "${raw}"`);
  }
}

/** --args as given: JSON text, @FILE for a file's contents, or - for standard input (large arguments). */
export function argumentsText(value: string): string {
  if (value === '-') return readFileSync(0, 'utf8');
  if (value.startsWith('@')) {
    try {
      return readFileSync(value.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(
        `--args ${value}: cannot read ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
  return value;
}
