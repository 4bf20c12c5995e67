// Validation against the official JSON Schema of a protocol revision (shipped in spec/mcp-schema/),
// loaded and compiled on first use.

import { readFileSync } from 'node:fs';

interface AjvInstance {
  addSchema(schema: object, key: string): void;
  getSchema(
    ref: string,
  ):
    | (((value: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null })
    | undefined;
  compile(
    schema: object,
  ): ((value: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };
}

const validators = new Map<string, Promise<{ ajv: AjvInstance; defs: string }>>();

async function load(revision: string): Promise<{ ajv: AjvInstance; defs: string }> {
  const url = new URL(`../../spec/mcp-schema/${revision}/schema.json`, import.meta.url);
  const schema = JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
  const draft2020 = '$defs' in schema;
  type AjvClass = new (options: object) => AjvInstance;
  const module = (draft2020 ? await import('ajv/dist/2020.js') : await import('ajv')) as unknown as {
    default: AjvClass;
  };
  const formats = (await import('ajv-formats')) as unknown as { default: (ajv: AjvInstance) => void };
  const ajv = new module.default({ strict: false, allErrors: true, validateFormats: true });
  formats.default(ajv);
  const { $schema: _drop, ...body } = schema;
  ajv.addSchema(body, 'mcp');
  return { ajv, defs: draft2020 ? '$defs' : 'definitions' };
}

/** Errors of `value` under the revision's definition `name` (e.g. "Tool"); an empty list when valid. */
export async function validateAgainst(revision: string, name: string, value: unknown): Promise<string[]> {
  let entry = validators.get(revision);
  if (!entry) {
    entry = load(revision);
    validators.set(revision, entry);
  }
  const { ajv, defs } = await entry;
  const validate = ajv.getSchema(`mcp#/${defs}/${name}`);
  if (!validate) return [`the ${revision} schema has no definition "${name}"`];
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}

/** Errors compiling `schema` as a JSON Schema (2020-12 unless it declares draft-07 or older). */
export async function jsonSchemaErrors(schema: unknown): Promise<string[]> {
  if (typeof schema !== 'object' || schema === null) return ['is not an object'];
  const declared = String((schema as { $schema?: unknown }).$schema ?? '');
  type AjvClass = new (options: object) => AjvInstance;
  const module = (/draft-0[4-7]/.test(declared)
    ? await import('ajv')
    : await import('ajv/dist/2020.js')) as unknown as {
    default: AjvClass;
  };
  // Only whether it compiles matters here: formats are not checked (nor warned about on the console).
  const ajv = new module.default({ strict: false, validateFormats: false });
  try {
    ajv.compile(schema);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}
