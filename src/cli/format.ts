// Human-readable output of results. Colour only on a terminal, and never when NO_COLOR is set.

import type { ContentBlock, ResourceContents } from '../protocol/types.js';
import { propertyTypes } from './schema-types.js';

const useColour = process.stdout.isTTY === true && !process.env.NO_COLOR;

function paint(code: number, text: string): string {
  return useColour ? `\u001b[${code}m${text}\u001b[0m` : text;
}

export const colour = {
  bold: (t: string) => paint(1, t),
  dim: (t: string) => paint(2, t),
  red: (t: string) => paint(31, t),
  green: (t: string) => paint(32, t),
  yellow: (t: string) => paint(33, t),
  blue: (t: string) => paint(34, t),
  magenta: (t: string) => paint(35, t),
  cyan: (t: string) => paint(36, t),
};

export function formatContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return colour.dim(
        `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`,
      );
    case 'resource_link':
      return colour.dim(`[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}]`);
    case 'resource':
      return formatResourceContents(block.resource);
    default:
      return JSON.stringify(block);
  }
}

export function formatResourceContents(contents: ResourceContents): string {
  if ('text' in contents) return contents.text;
  return colour.dim(
    `[binary ${contents.mimeType ?? 'data'}, ${Math.floor((contents.blob.length * 3) / 4)} bytes from ${contents.uri}]`,
  );
}

/** "path: string, head?: integer" from a JSON Schema object ($refs followed). */
export function summarizeArguments(schema: Record<string, unknown> | undefined): string {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  return Object.entries(properties)
    .map(
      ([name, p]) =>
        `${name}${required.has(name) ? '' : '?'}: ${propertyTypes(schema ?? {}, p)?.join('|') ?? 'any'}`,
    )
    .join(', ');
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
