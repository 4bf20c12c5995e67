// Validation of a message the server emitted against the official JSON Schema of one protocol revision
// (spec/mcp-schema/<revision>/schema.json). Three checks, all must pass:
//   1. the message is a JSONRPCMessage of the revision (the schema as shipped, as src/doctor/spec-schema.ts
//      validates it);
//   2. its body matches the revision's own definition for it: the result type of the request a response
//      answers, or the request or notification type of its method;
//   3. the same, strictly: every object definition of the schema that does not say otherwise is closed
//      (additionalProperties: false), so a field the revision does not define (a `title` in 2024-11-05,
//      `structuredContent` before 2025-06-18...) is an error. Objects the schema leaves open (`_meta`,
//      `Result`, a tool's `inputSchema`) stay open.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateAgainst } from '../../src/doctor/spec-schema.js';
import { RESULT_DEFINITIONS } from './schema-definitions.js';

export const HANDSHAKE_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export type Revision = (typeof HANDSHAKE_REVISIONS)[number];

type Message = Record<string, unknown>;
/** The method of the request a response answers, by the response's id. */
export type MethodOf = (id: unknown) => string | undefined;

const SERVER_REQUESTS: Record<string, string> = {
  ping: 'PingRequest',
  'sampling/createMessage': 'CreateMessageRequest',
  'roots/list': 'ListRootsRequest',
  'elicitation/create': 'ElicitRequest',
};

const SERVER_NOTIFICATIONS: Record<string, string> = {
  'notifications/message': 'LoggingMessageNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/cancelled': 'CancelledNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
};

// ---- the strict copy of each schema ----

interface Validator {
  (value: unknown): boolean;
  errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> | null;
}
interface AjvLike {
  addSchema(schema: object, key: string): void;
  getSchema(ref: string): Validator | undefined;
}

const strict = new Map<string, Promise<{ ajv: AjvLike; defs: string }>>();

/** Closes an object definition that does not say whether it is open; true when it did. */
function close(definition: Record<string, unknown>): boolean {
  if (!definition.properties || 'additionalProperties' in definition || definition.allOf) return false;
  definition.additionalProperties = false;
  return true;
}

async function loadStrict(revision: string): Promise<{ ajv: AjvLike; defs: string }> {
  const url = new URL(`../../spec/mcp-schema/${revision}/schema.json`, import.meta.url);
  const schema = JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
  const defs = '$defs' in schema ? '$defs' : 'definitions';
  for (const definition of Object.values(schema[defs] as Record<string, Record<string, unknown>>)) {
    close(definition);
    // The params of requests and notifications are inline objects in the older schemas; every
    // revision reserves `_meta` in them.
    const params = (definition.properties as Record<string, Record<string, unknown>> | undefined)?.params;
    if (params?.properties && close(params)) {
      (params.properties as Record<string, unknown>)._meta ??= { type: 'object' };
    }
  }
  type AjvClass = new (options: object) => AjvLike;
  const module = (defs === '$defs' ? await import('ajv/dist/2020.js') : await import('ajv')) as unknown as {
    default: AjvClass;
  };
  const formats = (await import('ajv-formats')) as unknown as { default: (ajv: AjvLike) => void };
  // The schema is the official one: checking it against its meta-schema on every load only costs time.
  const ajv = new module.default({
    strict: false,
    allErrors: true,
    validateFormats: true,
    validateSchema: false,
  });
  formats.default(ajv);
  const { $schema: _drop, ...body } = schema;
  ajv.addSchema(body, 'mcp');
  return { ajv, defs };
}

async function strictErrors(revision: string, name: string, value: unknown): Promise<string[]> {
  let entry = strict.get(revision);
  if (!entry) {
    entry = loadStrict(revision);
    strict.set(revision, entry);
  }
  const { ajv, defs } = await entry;
  const validate = ajv.getSchema(`mcp#/${defs}/${name}`);
  if (!validate) return [`the ${revision} schema has no definition "${name}"`];
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 5).map((e) => {
    const extra =
      e.params && 'additionalProperty' in e.params ? ` "${String(e.params.additionalProperty)}"` : '';
    return `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${extra} (strict)`;
  });
}

/**
 * The strict schema only adds constraints to the official one, so a value it accepts is valid under both.
 * The official schema is consulted (through the doctor's validator) when the strict one refuses, to report
 * a plain schema violation as such; this keeps each test file to one schema compilation per revision.
 */
async function bothErrors(revision: string, name: string, value: unknown): Promise<string[]> {
  const strictly = await strictErrors(revision, name, value);
  if (strictly.length === 0) return [];
  const official = await validateAgainst(revision, name, value);
  return (official.length > 0 ? official : strictly).map((e) => `${name}: ${e}`);
}

const raw = new Map<string, Record<string, Record<string, unknown>>>();

function definitions(revision: string): Record<string, Record<string, unknown>> {
  let defs = raw.get(revision);
  if (!defs) {
    const url = new URL(`../../spec/mcp-schema/${revision}/schema.json`, import.meta.url);
    const schema = JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
    defs = (schema.$defs ?? schema.definitions) as Record<string, Record<string, unknown>>;
    raw.set(revision, defs);
  }
  return defs;
}

/**
 * What of a request or notification its definition describes: the whole message where the definition
 * includes the JSON-RPC envelope (2025-11-25), only method and params where it does not (older ones).
 */
function body(revision: string, name: string, message: Message): Message {
  const properties = definitions(revision)[name]?.properties as Record<string, unknown> | undefined;
  if (properties && 'jsonrpc' in properties) return message;
  return 'params' in message
    ? { method: message.method, params: message.params }
    : { method: message.method };
}

function isNullIdError(message: unknown): boolean {
  const m = message as Message | null;
  return typeof m === 'object' && m !== null && m.id === null && 'error' in m && !('method' in m);
}

/** Why `message` (one the server sent) is not valid in `revision`; empty when it is. */
export async function messageErrors(
  revision: string,
  message: unknown,
  methodOf: MethodOf,
): Promise<string[]> {
  if (Array.isArray(message)) {
    if (revision !== '2025-03-26') return [`a batch is not a message of ${revision}`];
    const errors = await bothErrors(revision, 'JSONRPCBatchResponse', message);
    for (const item of message) errors.push(...(await messageErrors(revision, item, methodOf)));
    return errors;
  }
  if (isNullIdError(message)) {
    // JSON-RPC 2.0 (§5) answers a request whose id could not be read with "id": null; the MCP schemas
    // allow no null id (2025-11-25 lets the id be left out instead). The rest of such an error is checked.
    return messageErrors(revision, { ...(message as Message), id: 0 }, methodOf);
  }
  const errors = await bothErrors(revision, 'JSONRPCMessage', message);
  if (typeof message !== 'object' || message === null) return errors;
  const m = message as Message;
  if (typeof m.method === 'string') {
    const table = 'id' in m ? SERVER_REQUESTS : SERVER_NOTIFICATIONS;
    const name = table[m.method];
    if (!name) return [...errors, `the server sent "${m.method}", which no server may send`];
    errors.push(...(await bothErrors(revision, name, body(revision, name, m))));
  } else if ('result' in m) {
    const method = methodOf(m.id);
    const name = method === undefined ? undefined : RESULT_DEFINITIONS[method];
    if (!name) return [...errors, `a result for id ${JSON.stringify(m.id)}, which answers no known request`];
    errors.push(...(await bothErrors(revision, name, m.result)));
  } else if ('error' in m) {
    const name = revision >= '2025-11-25' ? 'JSONRPCErrorResponse' : 'JSONRPCError';
    errors.push(...(await bothErrors(revision, name, m)));
  }
  return errors;
}

/** Asserts that `message`, sent by a server, is valid for protocol revision `revision`. */
export async function assertValidForRevision(
  revision: string,
  message: unknown,
  methodOf: MethodOf = () => undefined,
): Promise<void> {
  const errors = await messageErrors(revision, message, methodOf);
  assert.deepEqual(errors, [], `not valid in ${revision}: ${JSON.stringify(message)}`);
}
