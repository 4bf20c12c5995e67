// The stateless era on the server's side (2026-07-28). Nothing here depends on earlier requests on the
// same connection: the envelope says who asks and with what capabilities, and a handler that needs input
// from the client ends the request with an input_required result, to be called again with the answers
// (carried back in a signed requestState).

import type { RequestContext as ConnectionRequestContext } from '../../jsonrpc/connection.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import type { AskOptions, TaskStarter } from '../context.js';
import { invalidParams, missingCapabilityError, ToolInputError } from '../errors.js';
import { Extension, type Extensions, extensionsOf, negotiateExtensions } from '../extensions.js';
import { logMessage } from '../logging.js';
import { Method, Notification } from '../methods.js';
import { buildContext } from '../request-context.js';
import type { SessionDescription } from '../server-definition.js';
import {
  encodeStatelessError,
  encodeStatelessResult,
  InputRequired,
  type RequestEnvelope,
  readEnvelope,
  STATELESS_VERSIONS,
} from '../stateless.js';
import { HANDSHAKE_VERSIONS } from '../versions.js';
import { type EraHost, type ServerEra, toolInputErrorResult } from './era.js';

const INPUT_KEYS = new Set(['inputResponses', 'requestState']);
/** Methods of the handshake era that the stateless revision removed (subscriptions/listen replaces subscribe). */
const REMOVED_METHODS = new Set<string>([
  Method.Initialize,
  Method.Ping,
  Method.LoggingSetLevel,
  Method.ResourcesSubscribe,
  Method.ResourcesUnsubscribe,
]);
const TASK_METHODS: ReadonlySet<string> = new Set([Method.TasksGet, Method.TasksUpdate, Method.TasksCancel]);

export class StatelessEra implements ServerEra {
  constructor(private readonly host: EraHost) {}

  async serve(
    method: string,
    params: Record<string, unknown> | undefined,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> {
    const own = params ?? {};
    try {
      const envelope = readEnvelope(own);
      if (method === Method.ServerDiscover) {
        return this.discover(this.host.server.describe ? await this.host.server.describe() : undefined);
      }
      if (method === Method.SubscriptionsListen) return await this.host.subscriptions.listen(own, ctx);
      if (TASK_METHODS.has(method) && !(this.host.server.forwardsInput && !this.host.server.tasks)) {
        return await this.task(method, own, ctx);
      }
      if (REMOVED_METHODS.has(method)) {
        throw new JsonRpcError(
          ErrorCode.MethodNotFound,
          `Method not found: "${method}" does not exist in ${envelope.protocolVersion}`,
        );
      }
      return await this.dispatch(method, own, envelope, ctx);
    } catch (error) {
      throw encodeStatelessError(error);
    }
  }

  private async dispatch(
    method: string,
    params: Record<string, unknown>,
    envelope: RequestEnvelope,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> {
    const { server, connection, session, cacheHints } = this.host;
    // Checked before the handler runs: a handler never sees answers the server did not sign for this request.
    const handler = server.handler(method);
    if (!handler) throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);

    // A server that forwards input rounds opens the state only when it asks something itself: the state
    // and answers it is sent may be for the server behind it.
    const forwards = server.forwardsInput === true;
    let opened: Record<string, unknown> | undefined;
    const answersOf = () =>
      (opened ??= {
        ...this.host.requestState.open(method, params, params.requestState),
        ...inputResponsesOf(params),
      });
    const answers = forwards ? undefined : answersOf();
    let asked = 0;
    /** The answers the handler took this round: the only ones the next state carries on. */
    const used: Record<string, unknown> = {};
    const pending: Record<string, { method: string; params: unknown }> = {};
    let negotiated: Extensions | undefined;
    const extensions = () =>
      (negotiated ??= negotiateExtensions(
        extensionsOf(server.capabilities()),
        extensionsOf(envelope.clientCapabilities),
      ));
    // A request may become a task when the server runs tasks and the client declared the extension on it.
    const manager = server.tasks;
    const tasks: TaskStarter | undefined =
      manager && Extension.Tasks in extensionsOf(envelope.clientCapabilities)
        ? {
            start: (work) =>
              manager.start(work, {
                requestId: ctx.id,
                protocolVersion: envelope.protocolVersion,
                clientCapabilities: envelope.clientCapabilities,
                clientInfo: envelope.clientInfo,
                auth: ctx.auth,
                extensions: extensions(),
              }),
          }
        : undefined;
    let state: Map<unknown, unknown> | undefined;
    const context = buildContext({
      requestId: ctx.id,
      protocolVersion: envelope.protocolVersion,
      clientCapabilities: envelope.clientCapabilities,
      clientInfo: envelope.clientInfo,
      // A request's own storage (a 2026-07-28 request has no session), made only if its handler looks.
      get sessionState() {
        state ??= new Map();
        return state;
      },
      get signal() {
        return ctx.signal;
      },
      auth: ctx.auth,
      get extensions() {
        return extensions();
      },
      tasks,
      sendProgress: (update) => ctx.sendProgress(update),
      log: (level, data, logger) => {
        // Logging is per request here: only when the request asked for it, at its level.
        if (!envelope.logLevel) return;
        const message = logMessage(level, data, logger, envelope.logLevel);
        if (message) connection.notify(Notification.Message, message, { relatedRequestId: ctx.id });
      },
      ask: <T>(askMethod: string, askParams: unknown, options?: AskOptions) => {
        // Unnamed asks are keyed by order: the same handler code asks in the same order on every round.
        const key = options?.key ?? `${askMethod}#${++asked}`;
        let known: Record<string, unknown>;
        try {
          known = answers ?? answersOf();
        } catch (error) {
          return Promise.reject(error);
        }
        if (key in known) {
          used[key] = known[key];
          return Promise.resolve(known[key] as T);
        }
        // Every ask still unanswered when the handler gives up goes out together, so a handler that asks
        // several questions at once gets all their answers in one round.
        pending[key] = { method: askMethod, params: askParams };
        return Promise.reject(new InputRequired(key, { method: askMethod, params: askParams }));
      },
      missingCapability: (capability, askMethod) =>
        missingCapabilityError(capability, askMethod, 'this request'),
    });
    let result: Record<string, unknown>;
    try {
      result = await handler(forwards ? params : withoutInputKeys(params), context, session);
    } catch (error) {
      if (error instanceof InputRequired) {
        return encodeStatelessResult(
          method,
          {
            resultType: 'input_required',
            inputRequests: { ...pending, [error.key]: error.request },
            requestState: this.host.requestState.seal(method, params, used),
          },
          server.info,
          cacheHints,
        );
      }
      if (!(error instanceof ToolInputError)) throw error;
      result = toolInputErrorResult(error);
    }
    return encodeStatelessResult(method, result, server.info, cacheHints);
  }

  /** tasks/get, tasks/update and tasks/cancel of the tasks extension. */
  private async task(
    method: string,
    params: Record<string, unknown>,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> {
    const { server, cacheHints } = this.host;
    const tasks = server.tasks;
    if (!tasks) {
      throw new JsonRpcError(
        ErrorCode.MethodNotFound,
        `Method not found: ${method} belongs to the tasks extension ("${Extension.Tasks}"), which this server does not offer`,
      );
    }
    // The extension's methods belong to requests that declare it (SEP-2575, missing capabilities).
    if (!(Extension.Tasks in extensionsOf(readEnvelope(params).clientCapabilities))) {
      throw new JsonRpcError(
        ErrorCode.MissingRequiredClientCapability,
        `"${method}" needs the "${Extension.Tasks}" extension declared in the request's client capabilities`,
        { requiredCapabilities: { extensions: { [Extension.Tasks]: {} } } },
      );
    }
    let result: Record<string, unknown> = {};
    if (method === Method.TasksGet) result = { ...(await tasks.get(params.taskId, ctx.auth)) };
    else if (method === Method.TasksUpdate)
      await tasks.update(params.taskId, params.inputResponses, ctx.auth);
    else await tasks.cancel(params.taskId, ctx.auth);
    return encodeStatelessResult(method, result, server.info, cacheHints);
  }

  private discover(description: SessionDescription | undefined): Record<string, unknown> {
    const { server, cacheHints } = this.host;
    const result: Record<string, unknown> = {
      supportedVersions: [...STATELESS_VERSIONS, ...[...HANDSHAKE_VERSIONS].reverse()],
      capabilities: description?.capabilities ?? server.capabilities(),
    };
    const instructions = description ? description.instructions : server.instructions;
    if (instructions !== undefined) result.instructions = instructions;
    return encodeStatelessResult(Method.ServerDiscover, result, description?.info ?? server.info, cacheHints);
  }
}

function inputResponsesOf(params: Record<string, unknown>): Record<string, unknown> {
  const responses = params.inputResponses;
  if (responses === undefined) return {};
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw invalidParams(
      'Invalid params: inputResponses must be an object keyed like the inputRequests it answers',
    );
  }
  for (const [key, answer] of Object.entries(responses)) {
    // Each answer is the result of the request it answers (an ElicitResult, a CreateMessageResult...).
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
      throw invalidParams(
        `Invalid params: inputResponses["${key}"] must be an object, the result of the input request it answers`,
      );
    }
  }
  return responses as Record<string, unknown>;
}

/** What the handler sees: the request's own params, without the round-trip plumbing. */
function withoutInputKeys(params: Record<string, unknown>): Record<string, unknown> {
  if (!Object.keys(params).some((k) => INPUT_KEYS.has(k))) return params;
  return Object.fromEntries(Object.entries(params).filter(([k]) => !INPUT_KEYS.has(k)));
}
