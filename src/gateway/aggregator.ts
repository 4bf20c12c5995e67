// The front of a gateway: one server definition over every server of an McpHost. Tools and prompts are
// listed as "<server>__<name>" (after each server's filters and renames), resources and templates with
// their own URIs (a URI two servers list is kept unique as gateway://<server>/<uri>), every list paginated
// by the gateway itself; each request is routed to its server and forwarded as the proxy forwards
// (forward-call.ts). A server that fails or restarts drops out of the lists, and back in, and the clients
// are told the lists changed; the others go on.

import type { McpClient } from '../client/client.js';
import type { McpHost } from '../host/host.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import type { RequestContext } from '../protocol/context.js';
import { invalidParams } from '../protocol/errors.js';
import { Extension, extensionsOf } from '../protocol/extensions.js';
import { Method } from '../protocol/methods.js';
import { paginate } from '../protocol/pagination.js';
import type {
  ListKind,
  ServerDefinition,
  ServerRequestHandler,
  Session,
} from '../protocol/server-definition.js';
import type { ServerSession } from '../protocol/server-session.js';
import type {
  Implementation,
  LoggingLevel,
  Prompt,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '../protocol/types.js';
import { UriTemplate } from '../server/uri-template.js';
import { BackLink } from './back-link.js';
import { forwardClientNotification } from './client-notifications.js';
import { noFilters, originalName, passes, type ServerFilters, shownName } from './filters.js';
import { forwardCall } from './forward-call.js';
import { ToolMarks } from './tool-marks.js';

const SEPARATOR = '__';
const WRAPPED = 'gateway://';

export interface AggregatorOptions {
  info: Implementation;
  filters: Map<string, ServerFilters>;
  /** Items per page of every list (100). */
  pageSize?: number;
  /** Longest a forwarded request may take, in ms (1 hour). */
  timeout?: number;
}

interface Listed<T> {
  server: string;
  item: T;
}

/** How many task ids the gateway remembers the server of. */
const MAX_TASKS = 10_000;

export class Aggregator implements ServerDefinition {
  /** 2026-07-28 input rounds and tasks of a back go to the caller as they are (forward-call.ts). */
  readonly forwardsInput = true;
  /** The listed tools' x-mcp-header marks, for the HTTP front to check Mcp-Param-* headers by. */
  readonly toolMarks = new ToolMarks();
  readonly instructions: string | undefined = undefined;
  /** Routes the servers' own requests to the front request in flight, and their notifications to all. */
  readonly link = new BackLink();
  private readonly fronts = new Set<ServerSession>();
  /** Which server each listed resource URI (as shown) belongs to, and its own URI there. */
  private readonly owners = new Map<string, { server: string; uri: string }>();
  private readonly templates = new Map<string, Array<{ template: UriTemplate; raw: string }>>();
  private readonly subscribed = new Map<string, number>();
  private host: McpHost | undefined;

  constructor(private readonly options: AggregatorOptions) {
    this.link.audience = () => this.fronts;
  }

  get info(): Implementation {
    return this.options.info;
  }

  /** The host whose servers this gateway serves (made after the aggregator: its callbacks route here). */
  serve(host: McpHost): void {
    this.host = host;
  }

  attach(session: ServerSession): void {
    this.fronts.add(session);
  }

  sessionClosed(session: Session): void {
    this.fronts.delete(session as ServerSession);
  }

  /** Every list of every client changed (a server started, crashed or came back). */
  listsChanged(kinds: readonly ListKind[] = ['tools', 'prompts', 'resources']): void {
    for (const session of this.fronts) for (const kind of kinds) session.listChanged(kind);
  }

  capabilities(): ServerCapabilities {
    const capabilities: ServerCapabilities = {
      logging: {},
      completions: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    };
    // The tasks extension, when a server offers it: its tasks are handed through (forwardsInput) and
    // tasks/* go to the server that made the task (taskServers).
    const tasks = this.ready()
      .map(({ client }) => extensionsOf(client.serverCapabilities)[Extension.Tasks])
      .find((settings) => settings !== undefined);
    if (tasks !== undefined) capabilities.extensions = { [Extension.Tasks]: tasks };
    return capabilities;
  }

  /** Which server made each task that went through (task id to server), the oldest forgotten first. */
  private readonly taskServers = new Map<string, string>();

  loggingLevelChanged(_session: Session, level: LoggingLevel): void {
    for (const { client } of this.ready()) client.setLoggingLevel(level).catch(() => {});
  }

  clientNotification(method: string, params: unknown): void {
    for (const { client } of this.ready()) forwardClientNotification(client, method, params);
  }

  subscriptionChanged(_session: Session, uri: string, subscribed: boolean): void {
    const count = (this.subscribed.get(uri) ?? 0) + (subscribed ? 1 : -1);
    if (count > 0) this.subscribed.set(uri, count);
    else this.subscribed.delete(uri);
    if (subscribed ? count !== 1 : count !== 0) return;
    void this.routeUri(uri)
      .then(({ client, uri: own }) =>
        subscribed ? client.subscribeResource(own) : client.unsubscribeResource(own),
      )
      .catch(() => {});
  }

  handler(method: string): ServerRequestHandler | undefined {
    switch (method) {
      case Method.ToolsList:
        return (params) => this.listTools(params);
      case Method.PromptsList:
        return (params) => this.listPrompts(params);
      case Method.ResourcesList:
        return (params) => this.listResources(params);
      case Method.ResourcesTemplatesList:
        return (params) => this.listTemplates(params);
      case Method.ToolsCall:
        return (params, context, session) => this.callNamed('tools', method, params, context, session);
      case Method.PromptsGet:
        return (params, context, session) => this.callNamed('prompts', method, params, context, session);
      case Method.ResourcesRead:
        return (params, context, session) => this.callUri(method, params, context, session);
      case Method.ResourcesSubscribe:
      case Method.ResourcesUnsubscribe:
        return async (params, _context, session) => {
          if (typeof params.uri !== 'string') throw invalidParams('Invalid params: "uri" must be a string');
          await this.routeUri(params.uri);
          // Not forwarded as is: subscriptionChanged follows the URI through each back client's own era
          // (a 2026-07-28 server has no resources/subscribe; its client listens instead).
          session.setSubscription(params.uri, method === Method.ResourcesSubscribe);
          return {};
        };
      case Method.CompletionComplete:
        return (params, context, session) => this.complete(params, context, session);
      case Method.TasksGet:
      case Method.TasksUpdate:
      case Method.TasksCancel:
        return (params, context, session) => this.task(method, params, context, session);
      default:
        return undefined;
    }
  }

  // ---- lists ----

  private ready(): Array<{ name: string; client: McpClient }> {
    const host = this.host;
    if (!host) return [];
    return host
      .status()
      .filter((s) => s.state === 'ready')
      .map((s) => ({ name: s.name, client: host.client(s.name) }));
  }

  private filtersOf(server: string): ServerFilters {
    return this.options.filters.get(server) ?? noFilters();
  }

  /** One list of every ready server that offers it, in configuration order; a server that fails is left out. */
  private async gather<T>(
    capability: keyof ServerCapabilities,
    list: (client: McpClient) => Promise<T[]>,
  ): Promise<Array<Listed<T>>> {
    const servers = this.ready().filter(({ client }) => client.serverCapabilities?.[capability]);
    const lists = await Promise.all(
      servers.map(async ({ name, client }) => {
        const items = await list(client).catch(() => [] as T[]);
        return items.map((item) => ({ server: name, item }));
      }),
    );
    return lists.flat();
  }

  private page<T>(items: T[], params: Record<string, unknown>, key: string, list: string) {
    const page = paginate(items, params.cursor, this.options.pageSize ?? 100, list);
    const result: Record<string, unknown> = { [key]: page.items };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  /**
   * Learns the x-mcp-header marks of every tool of the servers that are ready, as a tools/list through the
   * front would: a 2026-07-28 client may call a tool it knows of without listing it here first, and its
   * Mcp-Param-* headers are then checked all the same.
   */
  async learnToolMarks(): Promise<void> {
    await this.listTools({}).catch(() => undefined);
  }

  private async listTools(params: Record<string, unknown>) {
    const all = await this.gather<Tool>('tools', (client) => client.listAllTools());
    const tools = all
      .filter(({ server, item }) => passes(this.filtersOf(server).tools, item.name))
      .map(({ server, item }) => ({
        ...item,
        name: this.qualify(server, shownName(this.filtersOf(server).tools, item.name)),
      }));
    this.toolMarks.learn(tools);
    return this.page(tools, params, 'tools', Method.ToolsList);
  }

  private async listPrompts(params: Record<string, unknown>) {
    const all = await this.gather<Prompt>('prompts', (client) => client.listAllPrompts());
    const prompts = all
      .filter(({ server, item }) => passes(this.filtersOf(server).prompts, item.name))
      .map(({ server, item }) => ({
        ...item,
        name: this.qualify(server, shownName(this.filtersOf(server).prompts, item.name)),
      }));
    return this.page(prompts, params, 'prompts', Method.PromptsList);
  }

  private async listResources(params: Record<string, unknown>) {
    const all = await this.gather<Resource>('resources', (client) => client.listAllResources());
    const seen = new Set<string>();
    const resources: Resource[] = [];
    for (const { server, item } of all) {
      if (!passes(this.filtersOf(server).resources, item.uri)) continue;
      const shown = seen.has(item.uri) ? `${WRAPPED}${server}/${encodeURIComponent(item.uri)}` : item.uri;
      seen.add(item.uri);
      this.owners.set(shown, { server, uri: item.uri });
      resources.push({ ...item, uri: shown });
    }
    return this.page(resources, params, 'resources', Method.ResourcesList);
  }

  private async listTemplates(params: Record<string, unknown>) {
    const all = await this.gather<ResourceTemplate>('resources', (client) =>
      client.listAllResourceTemplates(),
    );
    const templates = all.filter(({ server, item }) =>
      passes(this.filtersOf(server).resources, item.uriTemplate),
    );
    this.templates.clear();
    for (const { server, item } of templates) {
      const known = this.templates.get(server) ?? [];
      known.push({ template: new UriTemplate(item.uriTemplate), raw: item.uriTemplate });
      this.templates.set(server, known);
    }
    return this.page(
      templates.map((t) => t.item),
      params,
      'resourceTemplates',
      Method.ResourcesTemplatesList,
    );
  }

  // ---- routing ----

  private clientOf(server: string): McpClient {
    try {
      return this.host!.client(server);
    } catch (error) {
      throw new JsonRpcError(ErrorCode.InternalError, (error as Error).message);
    }
  }

  private qualify(server: string, name: string): string {
    return this.filtersOf(server).prefix ? `${server}${SEPARATOR}${name}` : name;
  }

  /** A tool or prompt name as listed: its server, and the server's own name for it. */
  private route(kind: 'tools' | 'prompts', name: unknown): { server: string; name: string } {
    const what = kind === 'tools' ? 'tool' : 'prompt';
    if (typeof name !== 'string') throw invalidParams(`Invalid params: "name" must be the name of a ${what}`);
    const servers = [...(this.host?.status() ?? [])].map((s) => s.name).sort((a, b) => b.length - a.length);
    for (const server of servers) {
      const prefix = `${server}${SEPARATOR}`;
      if (!name.startsWith(prefix)) continue;
      const filter = this.filtersOf(server)[kind];
      const own = originalName(filter, name.slice(prefix.length));
      if (own !== undefined && passes(filter, own)) return { server, name: own };
      break;
    }
    // Servers listed without the prefix ("prefix": false) answer to their own names, in configuration order.
    for (const server of this.host?.status().map((s) => s.name) ?? []) {
      const filters = this.filtersOf(server);
      if (filters.prefix) continue;
      const own = originalName(filters[kind], name);
      if (own !== undefined && passes(filters[kind], own)) return { server, name: own };
    }
    throw invalidParams(`Unknown ${what}: ${name} (gateway names are "<server>${SEPARATOR}<${what}>")`, {
      name,
    });
  }

  private async routeUri(uri: string): Promise<{ server: string; uri: string; client: McpClient }> {
    const known = this.owners.get(uri);
    if (known) return { ...known, client: this.clientOf(known.server) };
    if (uri.startsWith(WRAPPED)) {
      const rest = uri.slice(WRAPPED.length);
      const slash = rest.indexOf('/');
      const server = rest.slice(0, slash);
      return { server, uri: decodeURIComponent(rest.slice(slash + 1)), client: this.clientOf(server) };
    }
    if (this.templates.size === 0) await this.listTemplates({}).catch(() => undefined);
    for (const [server, templates] of this.templates) {
      if (templates.some(({ template }) => template.match(uri) !== undefined)) {
        return { server, uri, client: this.clientOf(server) };
      }
    }
    const withResources = this.ready().filter(({ client }) => client.serverCapabilities?.resources);
    if (withResources.length === 1)
      return { server: withResources[0]!.name, uri, client: withResources[0]!.client };
    throw invalidParams(`Unknown resource: ${uri} (no server of this gateway lists it)`, { uri });
  }

  private async forward(
    server: string,
    client: McpClient,
    method: string,
    params: Record<string, unknown>,
    context: RequestContext,
    session: Session,
  ): Promise<Record<string, unknown>> {
    const result = await forwardCall(client, this.link, method, params, context, {
      timeout: this.options.timeout ?? 3_600_000,
      label: `server "${server}"`,
      handshakeFront: session.protocolVersion !== undefined,
      owner: session,
    });
    if (result.resultType === 'task' && typeof result.taskId === 'string') {
      this.taskServers.delete(result.taskId);
      this.taskServers.set(result.taskId, server);
      if (this.taskServers.size > MAX_TASKS) {
        this.taskServers.delete(this.taskServers.keys().next().value!);
      }
    }
    return result;
  }

  /** tasks/get, tasks/update and tasks/cancel: to the server whose task it is. */
  private async task(
    method: string,
    params: Record<string, unknown>,
    context: RequestContext,
    session: Session,
  ): Promise<Record<string, unknown>> {
    if (!(Extension.Tasks in extensionsOf(context.clientCapabilities))) {
      throw new JsonRpcError(
        ErrorCode.MissingRequiredClientCapability,
        `"${method}" needs the "${Extension.Tasks}" extension declared in the request's client capabilities`,
        { requiredCapabilities: { extensions: { [Extension.Tasks]: {} } } },
      );
    }
    const server = typeof params.taskId === 'string' ? this.taskServers.get(params.taskId) : undefined;
    if (server === undefined) {
      throw invalidParams(`Invalid params: no task "${String(params.taskId)}" went through this gateway`);
    }
    return this.forward(server, this.clientOf(server), method, params, context, session);
  }

  private callNamed(
    kind: 'tools' | 'prompts',
    method: string,
    params: Record<string, unknown>,
    context: RequestContext,
    session: Session,
  ) {
    const { server, name } = this.route(kind, params.name);
    return this.forward(server, this.clientOf(server), method, { ...params, name }, context, session);
  }

  private async callUri(
    method: string,
    params: Record<string, unknown>,
    context: RequestContext,
    session: Session,
  ) {
    if (typeof params.uri !== 'string') throw invalidParams('Invalid params: "uri" must be a string');
    const { server, uri, client } = await this.routeUri(params.uri);
    const result = await this.forward(server, client, method, { ...params, uri }, context, session);
    if (uri === params.uri || !Array.isArray(result.contents)) return result;
    // The contents name the URI the client asked for.
    return {
      ...result,
      contents: (result.contents as Array<Record<string, unknown>>).map((c) =>
        c.uri === uri ? { ...c, uri: params.uri } : c,
      ),
    };
  }

  private async complete(params: Record<string, unknown>, context: RequestContext, session: Session) {
    const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
    if (ref?.type === 'ref/prompt') {
      const { server, name } = this.route('prompts', ref.name);
      return this.forward(
        server,
        this.clientOf(server),
        Method.CompletionComplete,
        { ...params, ref: { ...ref, name } },
        context,
        session,
      );
    }
    if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
      if (this.templates.size === 0) await this.listTemplates({}).catch(() => undefined);
      for (const [server, templates] of this.templates) {
        if (templates.some((t) => t.raw === ref.uri)) {
          return this.forward(
            server,
            this.clientOf(server),
            Method.CompletionComplete,
            params,
            context,
            session,
          );
        }
      }
      throw invalidParams(`Unknown resource template: ${ref.uri}`);
    }
    throw invalidParams(
      'Invalid params: "ref" must be {type: "ref/prompt", name} or {type: "ref/resource", uri}',
    );
  }
}
