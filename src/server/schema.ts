// Schemas for tool inputs and outputs: any Standard Schema (zod 4, valibot, arktype...) that also
// implements Standard JSON Schema, or a raw JSON Schema object passed through exactly as given.
// Validators are compiled once, on first use: a server that lists tools never pays for the compiler.

import type { JsonSchema } from '../protocol/types.js';

/** The parts of the Standard Schema v1 interface (standardschema.dev) that mcpwire uses. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output };
    /** The Standard JSON Schema extension. */
    readonly jsonSchema?: {
      input(options: { target: string }): Record<string, unknown>;
      output(options: { target: string }): Record<string, unknown>;
    };
  };
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        message: string;
        path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
      }>;
    };

export type SchemaInput = StandardSchemaV1 | JsonSchema;

export type ValidationResult = { ok: true; value: unknown } | { ok: false; issues: string[] };

export interface PreparedSchema {
  /** What is listed to clients. */
  readonly jsonSchema: JsonSchema;
  /**
   * Synchronous once compiled (and for any Standard Schema that validates synchronously): a promise only
   * when there is something to wait for, since every await costs a turn on the hot path of tools/call.
   */
  validate(value: unknown): ValidationResult | Promise<ValidationResult>;
}

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return typeof value === 'object' && value !== null && '~standard' in value;
}

export function prepareSchema(
  schema: SchemaInput,
  direction: 'input' | 'output',
  owner: string,
): PreparedSchema {
  if (isStandardSchema(schema)) {
    const standard = schema['~standard'];
    if (!standard.jsonSchema) {
      throw new TypeError(
        `${owner}: the ${standard.vendor} schema does not implement Standard JSON Schema, so it cannot be listed; pass a JSON Schema object instead`,
      );
    }
    const jsonSchema = standard.jsonSchema[direction]({ target: 'draft-2020-12' });
    return {
      jsonSchema,
      validate(value) {
        const result = standard.validate(value);
        return result instanceof Promise ? result.then(fromStandard) : fromStandard(result);
      },
    };
  }
  let compiling: Promise<(value: unknown) => ValidationResult> | undefined;
  let compiled: ((value: unknown) => ValidationResult) | undefined;
  return {
    jsonSchema: schema,
    validate(value) {
      if (compiled) return compiled(value);
      compiling ??= compileJsonSchema(schema).then((validator) => {
        compiled = validator;
        return validator;
      });
      return compiling.then((validator) => validator(value));
    },
  };
}

function fromStandard(result: StandardResult<unknown>): ValidationResult {
  if (result.issues) return { ok: false, issues: result.issues.map(formatStandardIssue) };
  return { ok: true, value: result.value };
}

function formatStandardIssue(issue: {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
}): string {
  const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

// ---- JSON Schema validation with Ajv, loaded on first use ----

interface AjvLike {
  compile(schema: object): AjvValidate;
}
interface AjvValidate {
  (value: unknown): boolean;
  errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> | null;
}

const ajvs = new Map<string, Promise<AjvLike>>();

function dialectOf(schema: JsonSchema): '2020' | '07' {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  return /draft-0[4-7]/.test(declared) ? '07' : '2020';
}

async function loadAjv(dialect: '2020' | '07'): Promise<AjvLike> {
  type AjvClass = new (options: object) => AjvLike;
  const module = (dialect === '2020' ? await import('ajv/dist/2020.js') : await import('ajv')) as unknown as {
    default: AjvClass;
  };
  const formats = (await import('ajv-formats')) as unknown as { default: (ajv: AjvLike) => void };
  // addUsedSchema: false keeps each compiled schema to itself. Ajv otherwise registers a schema's $id on
  // the shared instance, so a second schema with the same $id (the same schema object on two tools, or two
  // servers in one process) failed its first call with "schema with key or id ... already exists".
  const ajv = new module.default({
    allErrors: true,
    strict: false,
    validateFormats: true,
    addUsedSchema: false,
  });
  formats.default(ajv);
  return ajv;
}

async function compileJsonSchema(schema: JsonSchema): Promise<(value: unknown) => ValidationResult> {
  const dialect = dialectOf(schema);
  let ajv = ajvs.get(dialect);
  if (!ajv) {
    ajv = loadAjv(dialect);
    ajvs.set(dialect, ajv);
  }
  const { $schema: _ignored, ...rest } = schema;
  const validate = (await ajv).compile(dialect === '2020' ? rest : schema);
  return (value) => {
    if (validate(value)) return { ok: true, value };
    return { ok: false, issues: (validate.errors ?? []).map(formatAjvError) };
  };
}

function formatAjvError(error: {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}): string {
  const where = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : '';
  let message = error.message ?? 'is invalid';
  if (error.params && 'additionalProperty' in error.params) {
    message = `has an unexpected property "${String(error.params.additionalProperty)}"`;
  } else if (error.params && 'unevaluatedProperty' in error.params) {
    // unevaluatedProperties: false (2020-12) refuses a property as additionalProperties does: name it.
    message = `has an unexpected property "${String(error.params.unevaluatedProperty)}"`;
  }
  return where ? `${where}: ${message}` : message;
}
