// SEP-1034: when a user accepts an elicitation form without touching a field that has a default, the
// client fills in the default, so the server gets the value the form showed.

import type { ElicitResult, JsonSchema } from '../protocol/types.js';

export function applySchemaDefaults(schema: JsonSchema, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept') return result;
  const properties = (schema.properties ?? {}) as Record<string, { default?: unknown }>;
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  for (const [name, property] of Object.entries(properties)) {
    if (content[name] === undefined && property && property.default !== undefined)
      content[name] = property.default;
  }
  return { ...result, content: content as ElicitResult['content'] };
}
