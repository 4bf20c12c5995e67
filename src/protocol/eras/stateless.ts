// The stateless era on the server's side (2026-07-28). Nothing here depends on earlier requests on the
// same connection: the envelope says who asks and with what capabilities, and a handler that needs input
// from the client ends the request with an input_required result, to be called again with the answers
// (carried back in a signed requestState).

import { type RequestContext as ConnectionRequestContext, isPromiseLike } from '../../jsonrpc/connection.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { ToolInputError } from '../errors.js';
import { Extension, extensionsOf } from '../extensions.js';
import { Method } from '../methods.js';
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
import { StatelessRequestSource } from './stateless-request.js';

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

  /** Serves a request: at once when its handler answers at once, as in the handshake era. */
  serve(
    method: string,
    params: Record<string, unknown> | undefined,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown> {
    let answer: Promise<Record<string, unknown>> | Record<string, unknown>;
    try {
      answer = this.route(method, params ?? {}, ctx);
    } catch (error) {
      throw encodeStatelessError(error);
    }
    if (!(answer instanceof Promise)) return answer;
    return answer.catch((error: unknown) => {
      throw encodeStatelessError(error);
    });
  }

  private route(
    method: string,
    own: Record<string, unknown>,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown> {
    const envelope = readEnvelope(own);
    if (method === Method.ServerDiscover) {
      const describe = this.host.server.describe;
      if (!describe) return this.discover(undefined);
      return Promise.resolve(describe.call(this.host.server)).then((description) =>
        this.discover(description),
      );
    }
    if (method === Method.SubscriptionsListen) return this.host.subscriptions.listen(own, ctx);
    if (TASK_METHODS.has(method) && !(this.host.server.forwardsInput && !this.host.server.tasks)) {
      return this.task(method, own, ctx);
    }
    if (REMOVED_METHODS.has(method)) {
      throw new JsonRpcError(
        ErrorCode.MethodNotFound,
        `Method not found: "${method}" does not exist in ${envelope.protocolVersion}`,
      );
    }
    return this.dispatch(method, own, envelope, ctx);
  }

  private dispatch(
    method: string,
    params: Record<string, unknown>,
    envelope: RequestEnvelope,
    ctx: ConnectionRequestContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown> {
    const { server, session, cacheHints } = this.host;
    const handler = server.handler(method);
    if (!handler) throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    const source = new StatelessRequestSource(this.host, method, params, envelope, ctx);
    // A server that forwards input rounds opens the state only when it asks something itself: the state
    // and answers it is sent may be for the server behind it.
    const forwards = server.forwardsInput === true;
    // Checked before the handler runs: a handler never sees answers the server did not sign for this request.
    if (!forwards) source.answers();
    let result: Promise<Record<string, unknown>> | Record<string, unknown>;
    try {
      result = handler(forwards ? params : withoutInputKeys(params), buildContext(source), session);
    } catch (error) {
      return encodeStatelessResult(method, failedRound(source, error), server.info, cacheHints);
    }
    if (isPromiseLike(result)) {
      return Promise.resolve(result).then(
        (value) => encodeStatelessResult(method, value, server.info, cacheHints),
        (error: unknown) =>
          encodeStatelessResult(method, failedRound(source, error), server.info, cacheHints),
      );
    }
    return encodeStatelessResult(method, result as Record<string, unknown>, server.info, cacheHints);
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

/**
 * A round that ended on an ask not answered yet is an input_required result; invalid tool arguments are a
 * tool result. Any other error is thrown on as it is.
 */
function failedRound(source: StatelessRequestSource, error: unknown): Record<string, unknown> {
  if (error instanceof InputRequired) return source.inputRequired(error);
  if (!(error instanceof ToolInputError)) throw error;
  return toolInputErrorResult(error);
}

/** What the handler sees: the request's own params, without the round-trip plumbing. */
function withoutInputKeys(params: Record<string, unknown>): Record<string, unknown> {
  if (!('inputResponses' in params) && !('requestState' in params)) return params;
  return Object.fromEntries(Object.entries(params).filter(([k]) => !INPUT_KEYS.has(k)));
}
