// The stateless era from the client's side (2026-07-28): found with server/discover, every request
// carries the envelope, a result that asks for input (input_required) is answered with the same
// callbacks that answer the handshake era's server requests and sent again, and list changes and
// resource updates arrive on one subscriptions/listen stream, opened again whenever its filter changes.

import type { Connection, RequestOptions } from '../../jsonrpc/connection.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { McpwireError } from '../../jsonrpc/local-errors.js';
import type { Transport } from '../../jsonrpc/transport.js';
import { withKeys } from '../../jsonrpc/with-keys.js';
import { Extension } from '../../protocol/extensions.js';
import { Method } from '../../protocol/methods.js';
import { LATEST_STATELESS_VERSION, MetaKey, STATELESS_VERSIONS } from '../../protocol/stateless.js';
import type { Task } from '../../protocol/tasks/task.js';
import type {
  ClientCapabilities,
  Implementation,
  InitializeResult,
  LoggingLevel,
  ServerCapabilities,
} from '../../protocol/types.js';
import type { ClientAnswers } from '../answers.js';
import type { CallOptions } from '../call-options.js';
import { collectPages } from '../pagination.js';
import { TaskWaiter } from '../tasks.js';
import type { ClientEra } from './era.js';
import { HttpHeaderMirror } from './http-headers.js';
import { envelope, withEnvelope } from './stateless-envelope.js';

const MAX_INPUT_ROUNDS = 16;
const TASK_METHODS: ReadonlySet<string> = new Set([Method.TasksGet, Method.TasksUpdate, Method.TasksCancel]);

export interface DiscoverResult {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
  _meta?: Record<string, unknown>;
}

export interface StatelessEraOptions {
  clientInfo: Implementation;
  /** Whether the user wants list changes (a callback, or a list cache to keep fresh). */
  wantsListChanges: boolean;
  /** Told about tools left out of a tools/list for invalid x-mcp-header marks. */
  onWarning?: (message: string) => void;
  /** Declare the tasks extension on every request (else only on calls made with `task`). */
  tasks?: boolean;
}

export class StatelessEra implements ClientEra {
  readonly name = 'stateless';
  /** The level asked for with setLoggingLevel: it travels on every request. */
  private logLevel: LoggingLevel | undefined;
  private readonly subscriptions = new Set<string>();
  private listen: AbortController | undefined;
  /** Set on a transport with a stream per request (HTTP): headers and cancellation per exchange. */
  private readonly http: HttpHeaderMirror | undefined;
  private readonly waiter: TaskWaiter;

  constructor(
    private readonly connection: Connection,
    transport: Transport,
    private readonly answers: ClientAnswers,
    private readonly options: StatelessEraOptions,
  ) {
    this.http = transport.streamPerRequest ? new HttpHeaderMirror(options.onWarning) : undefined;
    this.waiter = new TaskWaiter(
      (method, params, callOptions) => this.send(method, params, callOptions),
      answers,
    );
  }

  /**
   * server/discover: what the server said about itself, in the shape of an initialize result, or
   * undefined when it does not speak this era. Falls back on any answer that is not one of this era, or
   * on a timeout: never on one particular error code, since old servers answer an unknown first request
   * in many ways.
   */
  async discover(timeout: number): Promise<InitializeResult | undefined> {
    // The probe's limit is its idle timeout alone. That one stands still while the transport holds the
    // probe for a login; a total limit would run on, and a login longer than it would pick the wrong era.
    const limits = { timeout, maxTotalTimeout: 0 };
    let discovered: DiscoverResult;
    try {
      discovered = await this.request<DiscoverResult>(Method.ServerDiscover, {}, limits);
    } catch (error) {
      // A server that refuses the version but names one this client speaks gets asked once more (the
      // refusal may come from a front that was not ready for it); anything else means another era.
      if (!offersStatelessVersion(error)) return undefined;
      try {
        discovered = await this.request<DiscoverResult>(Method.ServerDiscover, {}, limits);
      } catch {
        return undefined;
      }
    }
    const versions = Array.isArray(discovered?.supportedVersions) ? discovered.supportedVersions : [];
    if (!versions.some((v) => (STATELESS_VERSIONS as readonly string[]).includes(v))) return undefined;
    const serverInfo = (discovered._meta?.[MetaKey.ServerInfo] as Implementation | undefined) ?? {
      name: 'unknown',
      version: 'unknown',
    };
    const result: InitializeResult = {
      protocolVersion: LATEST_STATELESS_VERSION,
      capabilities: discovered.capabilities ?? {},
      serverInfo,
    };
    if (discovered.instructions !== undefined) result.instructions = discovered.instructions;
    if (this.options.wantsListChanges) this.openListen();
    return result;
  }

  /** A request, answered again with the client's input for as long as the server asks for it. */
  async send<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<T> {
    let current = params ?? {};
    for (let round = 0; ; round++) {
      const result = await this.request<Record<string, unknown>>(method, current, options);
      if (options.passThrough) return result as T;
      if (result?.resultType === 'task') return (await this.followTask(method, result, options)) as T;
      // A result without resultType is complete: servers of earlier drafts leave it out.
      if (result?.resultType !== 'input_required') return result as T;
      if (round >= MAX_INPUT_ROUNDS) {
        throw new McpwireError(
          'INPUT_ROUNDS_EXCEEDED',
          `"${method}" still asked for input after ${MAX_INPUT_ROUNDS} rounds; giving up`,
        );
      }
      const inputResponses = await this.answerInputRequests(
        (result.inputRequests ?? {}) as Record<string, { method: string; params?: unknown }>,
        options.signal,
        options.tag,
      );
      current = withKeys(params, { inputResponses });
      if (result.requestState !== undefined) current.requestState = result.requestState;
    }
  }

  /** A request answered with a task: followed to its end, if this client asked for tasks on it. */
  private followTask(
    method: string,
    result: Record<string, unknown>,
    options: CallOptions,
  ): Promise<Record<string, unknown>> {
    if (method !== Method.ToolsCall || !this.declaresTasks(options)) {
      return Promise.reject(
        new McpwireError(
          'UNEXPECTED_TASK',
          `the server answered "${method}" with a task, which ${method === Method.ToolsCall ? 'this call did not declare the tasks extension for' : 'no request but tools/call may become'}: an invalid answer`,
        ),
      );
    }
    return this.waiter.wait(result as unknown as Task, options);
  }

  /**
   * A tools/call with the tasks extension declared, not followed: the task the server made of it, or the
   * result when it chose to answer at once.
   */
  startTask(params: Record<string, unknown>, options: CallOptions): Promise<Record<string, unknown>> {
    return this.request(Method.ToolsCall, params, withKeys(options, { task: true }));
  }

  /** Follows a task by its id (one started earlier, say) to its end. */
  async waitForTask(taskId: string, options: CallOptions): Promise<Record<string, unknown>> {
    const task = await this.send<Task>(Method.TasksGet, { taskId }, { signal: options.signal });
    return this.waiter.wait(task, options);
  }

  private declaresTasks(options: CallOptions): boolean {
    return options.task === true || this.options.tasks === true;
  }

  async ping(options?: CallOptions): Promise<Record<string, never>> {
    // The stateless revision has no ping; discover is its cheapest request. Its result is not handed out:
    // ping answers "alive", in the same shape in both eras.
    await this.send(Method.ServerDiscover, {}, options ?? {});
    return {};
  }

  async subscribe(uri: string): Promise<Record<string, never>> {
    this.subscriptions.add(uri);
    this.openListen();
    return {};
  }

  async unsubscribe(uri: string): Promise<Record<string, never>> {
    this.subscriptions.delete(uri);
    this.openListen();
    return {};
  }

  async setLoggingLevel(level: LoggingLevel): Promise<Record<string, never>> {
    // Stateless servers take the level with each request instead.
    this.logLevel = level;
    return {};
  }

  close(): void {
    this.listen?.abort();
  }

  /** One request with the envelope, on its own exchange where the transport has them. */
  private async request<T>(
    method: string,
    params: Record<string, unknown>,
    options: CallOptions,
    retried = false,
  ): Promise<T> {
    let capabilities: ClientCapabilities = options.capabilities ?? this.answers.capabilities();
    if (options.capabilities === undefined && (this.declaresTasks(options) || TASK_METHODS.has(method))) {
      capabilities = {
        ...capabilities,
        extensions: { ...capabilities.extensions, [Extension.Tasks]: {} },
      };
    }
    const sent = withEnvelope(params, envelope(capabilities, this.options.clientInfo, this.logLevel));
    const requestOptions: RequestOptions = this.http
      ? this.http.requestOptions(method, sent, options)
      : options;
    try {
      const result = await this.connection.request<T>(method, sent, requestOptions);
      if (this.http && method === Method.ToolsList) this.http.readTools(result);
      return result;
    } catch (error) {
      // A tools/call refused for its Mcp-Param-* headers: the tool's schema may be new or changed. As the
      // revision advises, list the tools again and retry once with the headers they call for.
      const tool = params.name;
      if (
        !this.http ||
        retried ||
        method !== Method.ToolsCall ||
        typeof tool !== 'string' ||
        !(error instanceof JsonRpcError && error.code === ErrorCode.HeaderMismatch)
      ) {
        throw error;
      }
      await collectPages(
        (cursor) =>
          this.request<{ tools: unknown[]; nextCursor?: string }>(
            Method.ToolsList,
            cursor === undefined ? {} : { cursor },
            { signal: options.signal },
          ),
        'tools',
      ).catch(() => undefined);
      if (!this.http.knows(tool)) throw error;
      return this.request<T>(method, params, options, true);
    }
  }

  /**
   * (Re)opens the one subscriptions/listen stream with the current filter: list changes when the user
   * wants them, and every subscribed resource.
   */
  private openListen(): void {
    this.listen?.abort();
    const notifications: Record<string, unknown> = {};
    if (this.options.wantsListChanges) {
      notifications.toolsListChanged = true;
      notifications.resourcesListChanged = true;
      notifications.promptsListChanged = true;
    }
    if (this.subscriptions.size > 0) notifications.resourceSubscriptions = [...this.subscriptions];
    if (Object.keys(notifications).length === 0) {
      this.listen = undefined;
      return;
    }
    const controller = new AbortController();
    this.request(
      Method.SubscriptionsListen,
      { notifications },
      { signal: controller.signal, timeout: 0 },
    ).catch(() => undefined);
    this.listen = controller;
  }

  /** Answers a server's input requests with the user's callbacks, keyed as the server keyed them. */
  private async answerInputRequests(
    requests: Record<string, { method: string; params?: unknown }>,
    signal: AbortSignal | undefined,
    tag: unknown,
  ): Promise<Record<string, unknown>> {
    const context = { signal: signal ?? new AbortController().signal, tag };
    const responses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests)) {
      responses[key] = await this.answers.answer(
        request.method,
        (request.params ?? {}) as Record<string, unknown>,
        context,
      );
    }
    return responses;
  }
}

/** Whether an error is -32022 (unsupported protocol version) naming a stateless version this client speaks. */
function offersStatelessVersion(error: unknown): boolean {
  if (!(error instanceof JsonRpcError) || error.code !== ErrorCode.UnsupportedProtocolVersion) return false;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  return (
    Array.isArray(supported) && supported.some((v) => (STATELESS_VERSIONS as readonly string[]).includes(v))
  );
}
