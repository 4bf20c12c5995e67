// Tools: registration, listing, and calls with validated arguments and structured output.

import { isPromiseLike } from '../jsonrpc/connection.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import {
  releaseStreamed,
  type StreamedString,
  streamedAsEmpty,
  streamedPending,
  streamedPlaces,
} from '../jsonrpc/streamed.js';
import type { AppToolLink } from '../protocol/apps.js';
import type { RequestContext } from '../protocol/context.js';
import { CapabilityError, invalidParams, ToolInputError } from '../protocol/errors.js';
import { InputRequired } from '../protocol/stateless.js';
import type {
  CallToolResult,
  ContentBlock,
  Icon,
  Meta,
  TextContent,
  Tool,
  ToolAnnotations,
} from '../protocol/types.js';
import { linkToolMeta } from './apps.js';
import {
  type PreparedSchema,
  prepareSchema,
  type SchemaInput,
  type StandardSchemaV1,
  type ValidationResult,
} from './schema.js';

export interface ToolDefinition<S extends SchemaInput = SchemaInput> {
  name: string;
  title?: string;
  description?: string;
  /** A Standard Schema (zod 4, ...) or a JSON Schema object; none means "no arguments". */
  inputSchema?: S;
  outputSchema?: SchemaInput;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
  /**
   * Whether a call may run as a task (the tasks extension, 2026-07-28): 'optional' runs it as a task when
   * the client declared the extension on the call, 'required' refuses a call that did not.
   */
  task?: 'optional' | 'required';
  /**
   * MCP Apps: the ui:// resource that renders this tool's results (`resourceUri`), and who may call it
   * (`visibility`: ['app'] for a tool only its app calls). Sent as _meta.ui.
   */
  ui?: AppToolLink;
}

/**
 * A text block whose `text` is a StreamedString (streamedFile): written into the answer as it is read
 * (jsonrpc/streamed.ts). In structuredContent a StreamedString goes where a string goes; the outputSchema
 * checks the rest of the result, not its text, which is not read before it is written. Each value is
 * written once, in one place.
 */
export type StreamedTextContent = Omit<TextContent, 'text'> & { text: StreamedString };

/** What a tool handler returns: a CallToolResult, where `content` may be left out if structured. */
export interface ToolOutput {
  content?: Array<ContentBlock | StreamedTextContent>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Meta;
}

export type ToolArguments<S> =
  S extends StandardSchemaV1<infer _Input, infer Output> ? Output : Record<string, unknown>;

export type ToolHandler<S extends SchemaInput = SchemaInput> = (
  args: ToolArguments<S>,
  context: RequestContext,
) => ToolOutput | Promise<ToolOutput>;

const NO_ARGUMENTS: Record<string, unknown> = { type: 'object', properties: {}, additionalProperties: false };

export interface RegisteredTool {
  readonly tool: Tool;
  readonly input: PreparedSchema;
  readonly output: PreparedSchema | undefined;
  readonly handler: ToolHandler;
  readonly task: 'optional' | 'required' | undefined;
}

export function defineTool<S extends SchemaInput>(
  definition: ToolDefinition<S>,
  handler: ToolHandler<S>,
): RegisteredTool {
  if (typeof definition.name !== 'string' || definition.name === '') {
    throw new TypeError(`a tool needs a non-empty string for its name, not ${describeName(definition.name)}`);
  }
  const input = prepareSchema(definition.inputSchema ?? NO_ARGUMENTS, 'input', `tool "${definition.name}"`);
  if (input.jsonSchema.type !== 'object') {
    throw new TypeError(`tool "${definition.name}": inputSchema must describe an object ("type": "object")`);
  }
  const output = definition.outputSchema
    ? prepareSchema(definition.outputSchema, 'output', `tool "${definition.name}"`)
    : undefined;
  const tool: Tool = { name: definition.name, inputSchema: input.jsonSchema };
  if (definition.title !== undefined) tool.title = definition.title;
  if (definition.description !== undefined) tool.description = definition.description;
  if (output) tool.outputSchema = output.jsonSchema;
  if (definition.annotations !== undefined) tool.annotations = definition.annotations;
  if (definition.icons !== undefined) tool.icons = definition.icons;
  if (definition._meta !== undefined) tool._meta = definition._meta;
  if (definition.ui !== undefined)
    tool._meta = linkToolMeta(definition.name, definition.ui, definition._meta);
  if (definition.task !== undefined && definition.task !== 'optional' && definition.task !== 'required') {
    throw new TypeError(`tool "${definition.name}": task must be 'optional' or 'required'`);
  }
  return { tool, input, output, handler: handler as ToolHandler, task: definition.task };
}

/** Runs a tools/call: validate, call, turn failures into isError results, check the output. */
/** Checks the arguments and runs the tool: at once when the checks and the tool do not wait (most). */
export function callTool(
  registered: RegisteredTool,
  rawArguments: unknown,
  context: RequestContext,
): CallToolResult | Promise<CallToolResult> {
  const args = checkArguments(registered, rawArguments);
  return args instanceof Promise
    ? args.then((checked) => runTool(registered, checked, context))
    : runTool(registered, args, context);
}

/** The arguments of a call as the tool's input schema reads them; a ToolInputError when it refuses them. */
export function checkArguments(
  registered: RegisteredTool,
  rawArguments: unknown,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const name = registered.tool.name;
  if (
    rawArguments !== undefined &&
    (typeof rawArguments !== 'object' || rawArguments === null || Array.isArray(rawArguments))
  ) {
    throw invalidParams(`Invalid params: "arguments" of tool "${name}" must be an object`);
  }
  const verdict = (validation: ValidationResult): Record<string, unknown> => {
    if (!validation.ok) throw new ToolInputError(name, validation.issues);
    return validation.value as Record<string, unknown>;
  };
  const pending = registered.input.validate(rawArguments ?? {});
  return pending instanceof Promise ? pending.then(verdict) : verdict(pending);
}

/**
 * Calls the tool with checked arguments: failures become isError results, the output is checked. A tool
 * that answers at once is answered at once (no promise): only one that waits is waited on.
 */
export function runTool(
  registered: RegisteredTool,
  args: Record<string, unknown>,
  context: RequestContext,
): CallToolResult | Promise<CallToolResult> {
  let returned: ToolOutput | PromiseLike<ToolOutput>;
  try {
    returned = registered.handler(args, context);
  } catch (error) {
    return failedTool(error);
  }
  if (isPromiseLike(returned)) {
    return Promise.resolve(returned).then((output) => toolResult(registered, output), failedTool);
  }
  return toolResult(registered, returned as ToolOutput);
}

/**
 * A tool that threw: a protocol error it raised on purpose goes out as one, and so does a request for
 * input of the stateless revision (it ends the round, it is no failure); anything else is the tool
 * failing, as a result the model can read, and so is a client capability the tool needed but lacks.
 */
function failedTool(error: unknown): CallToolResult {
  if (error instanceof CapabilityError) return errorResult(error.message);
  if (error instanceof JsonRpcError || error instanceof ToolInputError || error instanceof InputRequired)
    throw error;
  return errorResult(error instanceof Error ? error.message : String(error));
}

function toolResult(
  registered: RegisteredTool,
  output: ToolOutput,
): CallToolResult | Promise<CallToolResult> {
  // A handler that made a task of the call itself (context.tasks.start, after gathering input, say)
  // returns the task: it goes out as it is.
  if ((output as { resultType?: unknown }).resultType === 'task') return output as CallToolResult;
  return finishOutput(registered, output);
}

function finishOutput(
  registered: RegisteredTool,
  output: ToolOutput,
): CallToolResult | Promise<CallToolResult> {
  const name = registered.tool.name;
  // Streamed text stays as it is: the transport writes it (or the connection reads it) when answering.
  const result = { ...output, content: output.content ?? [] } as CallToolResult;
  // Where streamed values (jsonrpc/streamed.ts) sit in structuredContent: each is read once, as it is
  // written, so its text is never checked against the outputSchema (the rest of the result is).
  let streamedAt: string[] = [];
  if (streamedPending()) {
    const places = streamedPlaces(output.structuredContent, output.content);
    const refusal = streamedRefusal(name, output, places);
    if (refusal) {
      releaseStreamed(output);
      return errorResult(refusal);
    }
    streamedAt = places.paths;
  }
  if (output.structuredContent !== undefined && output.content === undefined) {
    // Clients of older revisions only read content: give them the structured result as text as well.
    result.content = [{ type: 'text', text: JSON.stringify(output.structuredContent) }];
  }
  if (!registered.output || output.isError) return result;
  // A result that is not sent closes the sources of its streamed values.
  const release = (): void => {
    if (streamedPending()) releaseStreamed(result);
  };
  const refuse = (message: string): CallToolResult => {
    release();
    return errorResult(message);
  };
  if (output.structuredContent === undefined) {
    return refuse(`tool "${name}" declares an outputSchema but returned no structuredContent`);
  }
  const verdict = (check: ValidationResult): CallToolResult => {
    const issues = check.ok
      ? []
      : check.issues.filter((issue) => !streamedAt.some((path) => issue.startsWith(`${path}: `)));
    if (issues.length === 0) return result;
    return refuse(
      `tool "${name}" returned structuredContent that does not match its outputSchema: ${issues.join('; ')}`,
    );
  };
  const failed = (error: unknown): never => {
    release();
    throw error;
  };
  let checked: ValidationResult | Promise<ValidationResult>;
  try {
    checked = registered.output.validate(
      streamedAt.length > 0 ? streamedAsEmpty(output.structuredContent) : output.structuredContent,
    );
  } catch (error) {
    return failed(error);
  }
  return checked instanceof Promise ? checked.then(verdict, failed) : verdict(checked);
}

/** Why a result's streamed values cannot be written, if they cannot: each is written once, in one place. */
function streamedRefusal(
  name: string,
  output: ToolOutput,
  places: ReturnType<typeof streamedPlaces>,
): string | undefined {
  if (places.paths.length > 0 && output.content === undefined) {
    return `tool "${name}" returned a streamed value in structuredContent and no content: a streamed value is written once, so give the text in content as a streamed value of its own`;
  }
  if (places.repeated) {
    return `tool "${name}" returned one streamed value in two places: a streamed value is written once, so give each place a value of its own (fileSources reads one open file several times)`;
  }
  return undefined;
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** What a tool was given as its name, in a registration error (JSON may throw on a BigInt). */
function describeName(name: unknown): string {
  if (typeof name === 'string') return 'an empty string';
  if (typeof name === 'bigint') return `${name}n`;
  return name === undefined ? 'nothing' : (JSON.stringify(name) ?? String(name));
}
