// The MCP server framework: register tools, resources and prompts, connect transports. One McpServer can
// serve many sessions at once (one per connection); capabilities are derived from what is registered.

import type { ConnectionProblem } from '../jsonrpc/connection.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import { SlottedSet } from '../jsonrpc/slotted-set.js';
import type { Transport } from '../jsonrpc/transport.js';
import { withKeys } from '../jsonrpc/with-keys.js';
import type { RequestContext } from '../protocol/context.js';
import { invalidParams, resourceNotFound } from '../protocol/errors.js';
import { checkExtensionId, Extension, type ExtensionSettings } from '../protocol/extensions.js';
import type { ParamHeader } from '../protocol/http/param-headers.js';
import { Method } from '../protocol/methods.js';
import { decodeCursor, encodeCursor, paginate } from '../protocol/pagination.js';
import { type RequestStateOptions, RequestStateSeal } from '../protocol/request-state.js';
import type {
  ListKind,
  ServerDefinition,
  ServerRequestHandler,
  Session,
} from '../protocol/server-definition.js';
import { ServerSession } from '../protocol/server-session.js';
import type { CacheHints } from '../protocol/stateless.js';
import { TaskManager, type TaskManagerOptions } from '../protocol/tasks/manager.js';
import type {
  CallToolResult,
  CompleteResult,
  Implementation,
  LoggingLevel,
  Resource,
  ServerCapabilities,
} from '../protocol/types.js';
import type { MessageBus } from '../transport/bus.js';
import type { HttpListener } from '../transport/http/listen.js';
import { type AppResourceDefinition, defineAppResource } from './apps.js';
import type { ListenOptions } from './http.js';
import {
  checkPromptArguments,
  definePrompt,
  type PromptDefinition,
  type PromptHandler,
  type RegisteredPrompt,
} from './prompts.js';
import {
  type Completer,
  defineTemplate,
  normalizeRead,
  type RegisteredResource,
  type RegisteredTemplate,
  type ResourcePage,
  type ResourceReader,
  type ResourceTemplateDefinition,
  type TemplateReader,
} from './resources.js';
import type { SchemaInput } from './schema.js';
import { processStdioTransport, type ServeStdioOptions } from './stdio-process.js';
import {
  callTool,
  checkArguments,
  defineTool,
  type RegisteredTool,
  runTool,
  type ToolDefinition,
  type ToolHandler,
} from './tools.js';

export interface McpServerOptions extends Implementation {
  /** Told to the client at initialization: how to use this server. */
  instructions?: string;
  /** Items per page of every list method (100). */
  pageSize?: number;
  /** Capabilities to declare whatever is registered (for servers that register later). */
  capabilities?: ServerCapabilities;
  /** Timeout of requests the server sends to clients (sampling, elicitation, roots), in ms. */
  timeout?: number;
  /** Told about what goes wrong and cannot be answered on the wire (parse errors, handler crashes). */
  onProblem?: (problem: ConnectionProblem) => void;
  /** Cache hints on list and read results of the stateless revision (ttlMs 0, private). */
  cache?: CacheHints;
  /**
   * Told about a registration that works but goes against the specification (a tool name it advises
   * against). By default a Node warning, which goes to stderr: never stdout, the protocol channel.
   */
  onWarning?: (message: string) => void;
  /** Extensions to offer (SEP-2133): identifier to settings ({} for none). `extension()` adds more. */
  extensions?: Record<string, ExtensionSettings>;
  /**
   * The tasks extension: where tasks are kept, how long, how often clients should poll. Tasks are offered
   * once a tool is registered with `task`; a TaskManager given here is used as it is.
   */
  tasks?: TaskManagerOptions | TaskManager;
  /**
   * The keys that sign requestState in input_required round trips (2026-07-28): the first signs, every
   * one verifies, so servers that share the ring accept each other's states and a key can be rotated.
   * A state expires after maxAgeMs (10 minutes). Without this, a random key per process.
   */
  requestState?: RequestStateOptions;
}

export interface Registration {
  /** Removes the registration; connected clients are told the list changed. */
  remove(): void;
}

const MAX_COMPLETIONS = 100;

/**
 * The fields of Implementation: what of McpServerOptions is the server's identity on the wire. A record
 * over its keys, so that a field added to Implementation must be added here too.
 */
const IMPLEMENTATION_KEYS: Record<keyof Implementation, true> = {
  name: true,
  version: true,
  title: true,
  description: true,
  websiteUrl: true,
  icons: true,
};

/** The bus channel of resource updates and list changes, heard by every instance of a fleet. */
const FLEET_EVENTS = 'mcpwire:server-events';

type FleetEvent = ({ t: 'updated'; uri: string } | { t: 'list'; kind: ListKind }) & { o: string };

export class McpServer implements ServerDefinition {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  private readonly options: McpServerOptions;
  private readonly requestStateSeal: RequestStateSeal | undefined;
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly resources = new Map<string, RegisteredResource>();
  private readonly templates = new Map<string, RegisteredTemplate>();
  private readonly prompts = new Map<string, RegisteredPrompt>();
  private readonly declaredExtensions = new Map<string, ExtensionSettings>();
  private taskManager: TaskManager | undefined;
  /**
   * Every open session. A SlottedSet, not a Set: a 2026-07-28 request is a session of its own, and a Set
   * of them cost each such request about half a microsecond (issue 21).
   */
  private readonly sessions = new SlottedSet<ServerSession>();
  /** The bus of the fleet this server serves in, if any (joinFleet). */
  private fleetBus: MessageBus | undefined;
  private readonly handlers: Map<string, ServerRequestHandler>;
  private readonly subscriptionListeners: Array<
    (uri: string, subscribed: boolean, session: Session) => void
  > = [];
  private readonly notificationListeners = new Map<
    string,
    Array<(params: unknown, session: Session) => void>
  >();

  constructor(options: McpServerOptions) {
    // Only the Implementation fields go on the wire as serverInfo, in the order the caller gave them. Picked
    // rather than the other options left out, so that an option added later cannot leak (`cache` did).
    this.info = Object.fromEntries(
      Object.entries(options).filter(([key]) => Object.hasOwn(IMPLEMENTATION_KEYS, key)),
    ) as unknown as Implementation;
    this.instructions = options.instructions;
    this.options = options;
    for (const [id, settings] of Object.entries(options.extensions ?? {})) this.extension(id, settings);
    this.requestStateSeal = options.requestState && new RequestStateSeal(options.requestState);
    this.handlers = new Map<string, ServerRequestHandler>([
      [Method.ToolsList, (params) => this.listTools(params)],
      [Method.ToolsCall, (params, context) => this.callTool(params, context)],
      [Method.ResourcesList, (params, context) => this.listResources(params, context)],
      [Method.ResourcesTemplatesList, (params) => this.listTemplates(params)],
      [Method.ResourcesRead, (params, context) => this.readResource(params, context)],
      [Method.ResourcesSubscribe, (params, _context, session) => this.subscribe(params, session, true)],
      [Method.ResourcesUnsubscribe, (params, _context, session) => this.subscribe(params, session, false)],
      [Method.PromptsList, (params) => this.listPrompts(params)],
      [Method.PromptsGet, (params, context) => this.getPrompt(params, context)],
      [Method.CompletionComplete, (params) => this.complete(params)],
    ]);
  }

  // ---- registration ----

  private warn(message: string): void {
    if (this.options.onWarning) this.options.onWarning(message);
    else process.emitWarning(message, 'McpwireWarning');
  }

  /**
   * Offers an extension (SEP-2133) with its settings. Handlers see whether a request's client declared it
   * too in `context.extensions`. The tasks and UI extensions are declared by what is registered.
   */
  extension(id: string, settings: ExtensionSettings = {}): this {
    checkExtensionId(id);
    this.declaredExtensions.set(id, settings);
    return this;
  }

  /** The tasks extension's manager, once a task-capable tool is registered (or `tasks` was given). */
  get tasks(): TaskManager | undefined {
    return this.taskManager;
  }

  tool<S extends SchemaInput>(definition: ToolDefinition<S>, handler: ToolHandler<S>): Registration {
    const registered = defineTool(definition, handler);
    if (registered.task) this.enableTasks();
    const advice = toolNameAdvice(registered.tool.name);
    if (advice) this.warn(`tool "${registered.tool.name}": ${advice}`);
    return this.register(this.tools, registered.tool.name, registered, 'tools');
  }

  resource(resource: Resource, read: ResourceReader): Registration {
    if (!resource.uri || !resource.name) throw new TypeError('a resource needs a uri and a name');
    return this.register(this.resources, resource.uri, { resource, read }, 'resources');
  }

  /**
   * Serves an MCP App: its HTML as a ui:// resource with the app MIME type and its settings in _meta.ui.
   * Link tools to it with their `ui.resourceUri`. Offers the io.modelcontextprotocol/ui extension.
   */
  appResource(definition: AppResourceDefinition): Registration {
    const { resource, read } = defineAppResource(definition);
    if (!this.declaredExtensions.has(Extension.Ui)) this.declaredExtensions.set(Extension.Ui, {});
    return this.resource(resource, read);
  }

  resourceTemplate(definition: ResourceTemplateDefinition, read: TemplateReader): Registration {
    const registered = defineTemplate(definition, read);
    return this.register(this.templates, definition.uriTemplate, registered, 'resources');
  }

  prompt(definition: PromptDefinition, handler: PromptHandler): Registration {
    const registered = definePrompt(definition, handler);
    return this.register(this.prompts, registered.prompt.name, registered, 'prompts');
  }

  private register<T>(table: Map<string, T>, key: string, value: T, changed: ListKind): Registration {
    if (table.has(key)) throw new TypeError(`"${key}" is already registered`);
    table.set(key, value);
    this.broadcast(changed);
    return {
      remove: () => {
        if (table.get(key) === value && table.delete(key)) this.broadcast(changed);
      },
    };
  }

  private enableTasks(): void {
    if (this.taskManager) return;
    const given = this.options.tasks;
    this.taskManager = given instanceof TaskManager ? given : new TaskManager(given);
  }

  // ---- sessions ----

  /** Serves one client over `transport`. */
  connect(transport: Transport): ServerSession {
    return this.serve(transport, this.requestStateSeal);
  }

  /** Serves one client, its requestState signed with `seal` (a listener's keys, or the server's). */
  private serve(transport: Transport, seal: RequestStateSeal | undefined): ServerSession {
    const session = new ServerSession(transport, this, {
      timeout: this.options.timeout,
      onProblem: this.options.onProblem,
      cache: this.options.cache,
      requestState: seal,
    });
    this.sessions.add(session);
    return session.start();
  }

  /**
   * Serves one client over this process's stdin and stdout, and owns the process meanwhile: stray writes
   * to stdout go to stderr, and the process exits once stdin has ended and every answer is flushed
   * (`exitOnClose` and `guardStdout` turn either off).
   */
  serveStdio(options?: ServeStdioOptions): ServerSession {
    return this.connect(processStdioTransport(options));
  }

  /** Serves any number of clients over Streamable HTTP (127.0.0.1 and a free port unless told otherwise). */
  async serveHttp(options?: ListenOptions): Promise<HttpListener> {
    const { listenHttp } = await import('./http.js');
    const { paramHeadersOf } = await import('../protocol/http/param-headers.js');
    // Each tool's x-mcp-header marks, read once per inputSchema, for checking stateless tools/call headers.
    const marks = new WeakMap<object, ParamHeader[]>();
    const paramHeaders = (name: string) => {
      const schema = this.tools.get(name)?.tool.inputSchema;
      if (!schema) return undefined;
      let found = marks.get(schema);
      if (!found) {
        const read = paramHeadersOf(schema);
        found = 'headers' in read ? read.headers : [];
        marks.set(schema, found);
      }
      return found;
    };
    const { redis, requestState, ...rest } = options ?? {};
    // Keys given here sign this listener's requestState (every instance of a fleet shares them).
    const seal = requestState ? new RequestStateSeal(requestState) : this.requestStateSeal;
    // A Redis URL makes the fleet's shared parts; node-redis is loaded only then.
    const backend = redis ? await (await import('../transport/redis/fleet.js')).redisFleet(redis) : undefined;
    const fleet = rest.fleet ?? (backend && { sessions: backend.sessions, bus: backend.bus });
    const leave = fleet ? await this.joinFleet(fleet.bus) : undefined;
    let listener: HttpListener;
    try {
      listener = await listenHttp((transport) => this.serve(transport, seal), {
        paramHeaders,
        ...rest,
        fleet,
        eventStore: rest.eventStore === undefined ? backend?.eventStore : rest.eventStore,
      });
    } catch (error) {
      await leave?.();
      await backend?.close();
      throw error;
    }
    const close = listener.close;
    listener.close = async () => {
      await close();
      await leave?.();
      await backend?.close();
    };
    return listener;
  }

  /**
   * Serves as one instance of a fleet: resource updates and list changes announced here reach the
   * clients of every instance, and theirs reach this one's. Returns how to leave.
   */
  async joinFleet(bus: MessageBus): Promise<() => Promise<void>> {
    this.fleetBus = bus;
    const off = await bus.subscribe(FLEET_EVENTS, (raw) => {
      const event = JSON.parse(raw) as FleetEvent;
      if (event.o === bus.instanceId) return;
      if (event.t === 'updated') this.resourceUpdatedHere(event.uri);
      else this.broadcast(event.kind);
    });
    return async () => {
      if (this.fleetBus === bus) this.fleetBus = undefined;
      await off();
    };
  }

  private announce(event: { t: 'updated'; uri: string } | { t: 'list'; kind: ListKind }): void {
    const bus = this.fleetBus;
    if (!bus) return;
    void bus.publish(FLEET_EVENTS, JSON.stringify({ ...event, o: bus.instanceId })).catch(() => undefined);
  }

  sessionClosed(session: Session): void {
    this.sessions.delete(session as ServerSession);
  }

  /** A session's first subscription to a URI, or its last one gone: tell listeners when the total crosses 0. */
  subscriptionChanged(session: Session, uri: string, subscribed: boolean): void {
    const others = [...this.sessions].some((s) => s !== session && s.isSubscribed(uri));
    if (others) return;
    for (const listener of this.subscriptionListeners) listener(uri, subscribed, session);
  }

  /**
   * Tells every client that a list changed when the server cannot see it by itself: registrations are
   * announced on their own, but a template's listing that follows the data (a new file, a new table) is not.
   */
  notifyListChanged(kind: ListKind): void {
    this.broadcast(kind);
    this.announce({ t: 'list', kind });
  }

  /** Tells every client subscribed to `uri` that the resource changed (on every instance of a fleet). */
  notifyResourceUpdated(uri: string): void {
    this.resourceUpdatedHere(uri);
    this.announce({ t: 'updated', uri });
  }

  private resourceUpdatedHere(uri: string): void {
    for (const session of this.sessions) session.resourceUpdated(uri);
  }

  /**
   * Called when the first client subscribes to a URI and when the last one unsubscribes, with the session
   * that did it.
   */
  onSubscriptionChange(listener: (uri: string, subscribed: boolean, session: Session) => void): void {
    this.subscriptionListeners.push(listener);
  }

  /** Listens for a notification from clients, e.g. notifications/roots/list_changed. */
  onClientNotification(method: string, listener: (params: unknown, session: Session) => void): void {
    const listeners = this.notificationListeners.get(method) ?? [];
    listeners.push(listener);
    this.notificationListeners.set(method, listeners);
  }

  clientNotification(method: string, params: unknown, session: Session): void {
    for (const listener of this.notificationListeners.get(method) ?? []) listener(params, session);
  }

  /** Sends a log message to every connected client (each filters by its own level). */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    for (const session of this.sessions) session.log(level, data, logger);
  }

  handler(method: string): ServerRequestHandler | undefined {
    return this.handlers.get(method);
  }

  capabilities(): ServerCapabilities {
    const capabilities: ServerCapabilities = { logging: {}, ...this.options.capabilities };
    if (this.tools.size > 0) capabilities.tools ??= { listChanged: true };
    if (this.resources.size > 0 || this.templates.size > 0) {
      capabilities.resources ??= { subscribe: true, listChanged: true };
    }
    if (this.prompts.size > 0) capabilities.prompts ??= { listChanged: true };
    const completes =
      [...this.prompts.values()].some((p) => Object.keys(p.complete).length > 0) ||
      [...this.templates.values()].some((t) => Object.keys(t.complete).length > 0);
    if (completes) capabilities.completions ??= {};
    if (this.declaredExtensions.size > 0 || this.taskManager) {
      const extensions: Record<string, ExtensionSettings> = { ...capabilities.extensions };
      for (const [id, settings] of this.declaredExtensions) extensions[id] = settings;
      if (this.taskManager) extensions[Extension.Tasks] ??= {};
      capabilities.extensions = extensions;
    }
    return capabilities;
  }

  private broadcast(kind: ListKind): void {
    for (const session of this.sessions) session.listChanged(kind);
  }

  // ---- method handlers ----

  private get pageSize(): number {
    return this.options.pageSize ?? 100;
  }

  private listTools(params: Record<string, unknown>) {
    const page = paginate([...this.tools.values()], params.cursor, this.pageSize, 'tools/list');
    return withCursor({ tools: page.items.map((t) => t.tool) }, page.nextCursor);
  }

  private callTool(
    params: Record<string, unknown>,
    context: RequestContext,
  ): Record<string, unknown> | Promise<Record<string, unknown>> {
    const { name } = params;
    if (typeof name !== 'string') throw invalidParams('Invalid params: "name" must be the name of a tool');
    const registered = this.tools.get(name);
    if (!registered) {
      throw invalidParams(`Unknown tool: ${name}`, { name, available: [...this.tools.keys()] });
    }
    if (registered.task) return this.callToolAsTask(registered, params.arguments, context);
    return asResult(callTool(registered, params.arguments, context));
  }

  /** A task-capable tool: a task when the request allows one, else inline (or refused, if it must be a task). */
  private async callToolAsTask(registered: RegisteredTool, rawArguments: unknown, context: RequestContext) {
    const { tasks } = context;
    if (tasks) {
      // Checked before the task exists: bad arguments are the call's error, not a failed task.
      const args = await checkArguments(registered, rawArguments);
      return tasks.start(async (taskContext) => asResult(await runTool(registered, args, taskContext)));
    }
    if (registered.task === 'required') {
      throw new JsonRpcError(
        ErrorCode.MissingRequiredClientCapability,
        `tool "${registered.tool.name}" runs only as a task: call it on protocol 2026-07-28 with the "${Extension.Tasks}" extension declared in the request's client capabilities`,
        { requiredCapabilities: { extensions: { [Extension.Tasks]: {} } } },
      );
    }
    return asResult(await callTool(registered, rawArguments, context));
  }

  /**
   * Fixed resources first, then each template's listing in turn. A template may page its listing itself
   * (a directory walk, say); the cursor then carries which source and the source's own position.
   */
  private async listResources(params: Record<string, unknown>, context: RequestContext) {
    const sources: ResourceSource[] = [
      { list: () => [...this.resources.values()].map((r) => r.resource) },
      ...[...this.templates.values()].flatMap((t) => (t.list ? [{ list: t.list }] : [])),
    ];
    let { source, position } = decodeSourceCursor(params.cursor, sources.length);
    const resources: Resource[] = [];
    while (source < sources.length && resources.length < this.pageSize) {
      const want = this.pageSize - resources.length;
      const listed = await sources[source]!.list(context, { after: position, limit: want });
      const page = Array.isArray(listed) ? pageOf(listed, position, want) : listed;
      resources.push(...page.resources);
      if (page.next === undefined) {
        source++;
        position = undefined;
      } else {
        position = page.next;
      }
    }
    const nextCursor = source < sources.length ? encodeSourceCursor(source, position) : undefined;
    return withCursor({ resources }, nextCursor);
  }

  private listTemplates(params: Record<string, unknown>) {
    const all = [...this.templates.values()].map((t) => t.template);
    const page = paginate(all, params.cursor, this.pageSize, 'resources/templates/list');
    return withCursor({ resourceTemplates: page.items }, page.nextCursor);
  }

  private async readResource(params: Record<string, unknown>, context: RequestContext) {
    const { uri } = params;
    if (typeof uri !== 'string') throw invalidParams('Invalid params: "uri" must be a string');
    const fixed = this.resources.get(uri);
    if (fixed) return { ...normalizeRead(uri, await fixed.read(uri, context)) };
    for (const template of this.templates.values()) {
      const variables = template.matcher.match(uri);
      if (variables) return { ...normalizeRead(uri, await template.read(uri, variables, context)) };
    }
    throw resourceNotFound(uri);
  }

  private subscribe(params: Record<string, unknown>, session: Session, subscribed: boolean) {
    const { uri } = params;
    if (typeof uri !== 'string') throw invalidParams('Invalid params: "uri" must be a string');
    session.setSubscription(uri, subscribed);
    return {};
  }

  private listPrompts(params: Record<string, unknown>) {
    const page = paginate([...this.prompts.values()], params.cursor, this.pageSize, 'prompts/list');
    return withCursor({ prompts: page.items.map((p) => p.prompt) }, page.nextCursor);
  }

  private async getPrompt(params: Record<string, unknown>, context: RequestContext) {
    const { name } = params;
    if (typeof name !== 'string') throw invalidParams('Invalid params: "name" must be the name of a prompt');
    const registered = this.prompts.get(name);
    if (!registered)
      throw invalidParams(`Unknown prompt: ${name}`, { name, available: [...this.prompts.keys()] });
    const args = checkPromptArguments(registered, params.arguments);
    return { ...(await registered.handler(args, context)) };
  }

  private async complete(params: Record<string, unknown>): Promise<CompleteResult & Record<string, unknown>> {
    const { ref, argument, context } = params as {
      ref?: { type?: unknown; name?: unknown; uri?: unknown };
      argument?: { name?: unknown; value?: unknown };
      context?: { arguments?: Record<string, string> };
    };
    if (typeof argument?.name !== 'string' || typeof argument.value !== 'string') {
      throw invalidParams('Invalid params: "argument" must be an object with string "name" and "value"');
    }
    let completers: Record<string, Completer>;
    if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
      const prompt = this.prompts.get(ref.name);
      if (!prompt) throw invalidParams(`Unknown prompt: ${ref.name}`);
      completers = prompt.complete;
    } else if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
      const template = this.templates.get(ref.uri);
      if (!template) throw invalidParams(`Unknown resource template: ${ref.uri}`);
      completers = template.complete;
    } else {
      throw invalidParams(
        'Invalid params: "ref" must be {type: "ref/prompt", name} or {type: "ref/resource", uri}',
      );
    }
    const completer = completers[argument.name];
    const values = completer ? await completer(argument.value, { arguments: context?.arguments ?? {} }) : [];
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETIONS),
        total: values.length,
        hasMore: values.length > MAX_COMPLETIONS,
      },
    };
  }
}

interface ResourceSource {
  list: NonNullable<ResourceTemplateDefinition['list']>;
}

/** Slices an unpaged listing: the position is an offset. */
function pageOf(all: Resource[], position: string | undefined, limit: number): ResourcePage {
  const start = position === undefined ? 0 : Number(position);
  const end = Math.min(all.length, start + limit);
  return { resources: all.slice(start, end), next: end < all.length ? String(end) : undefined };
}

const RESOURCES_LIST = 'resources/list';

function encodeSourceCursor(source: number, position: string | undefined): string {
  return encodeCursor([source, position ?? null], RESOURCES_LIST);
}

function decodeSourceCursor(
  cursor: unknown,
  sources: number,
): { source: number; position: string | undefined } {
  if (cursor === undefined) return { source: 0, position: undefined };
  const state = decodeCursor(cursor, RESOURCES_LIST);
  if (Array.isArray(state) && state.length === 2) {
    const [source, position] = state as [unknown, unknown];
    if (typeof source === 'number' && Number.isInteger(source) && source >= 0 && source < sources) {
      if (position === null || typeof position === 'string')
        return { source, position: position ?? undefined };
    }
  }
  throw invalidParams('Invalid cursor: pass the nextCursor of a previous resources/list response, unchanged');
}

function withCursor<T extends Record<string, unknown>>(result: T, nextCursor: string | undefined): T {
  return nextCursor === undefined ? result : withKeys(result, { nextCursor });
}

/** A name that follows the advice throughout: most do, and then nothing more is looked at. */
const GOOD_TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Why a tool name goes against the specification's advice (2025-11-25 server/tools, "Tool names"):
 * 1 to 128 characters, of A-Z, a-z, 0-9, underscore, hyphen and dot. Undefined for a good name.
 */
export function toolNameAdvice(name: string): string | undefined {
  if (name.length === 0 || name.length > 128) {
    return `a tool name should be 1 to 128 characters long, not ${name.length}`;
  }
  if (GOOD_TOOL_NAME.test(name)) return undefined;
  const bad = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ''))];
  if (bad.length === 0) return undefined;
  const shown = bad.map((c) => (c === ' ' ? 'space' : JSON.stringify(c))).join(', ');
  return `a tool name should use only letters, digits, "_", "-" and "."; this one has ${shown}, which some clients refuse`;
}

/**
 * A tool's result as the router's record. It is the tools module's own object (made for this call, or the
 * task a handler returned), and the codecs copy what they change: a copy here cost every call one more.
 */
function asResult(
  result: CallToolResult | Promise<CallToolResult>,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  return result as unknown as Record<string, unknown> | Promise<Record<string, unknown>>;
}
