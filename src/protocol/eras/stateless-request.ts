// One 2026-07-28 request as its handler's context reaches it (ContextSource): who asks comes from the
// request's envelope, storage is the request's own, and an ask is answered from what the client sent back
// (inputResponses, and the answers of earlier rounds in the signed requestState) or ends the round with
// input_required. One object per request with its methods on the prototype: the object literal of
// getters and closures it replaces cost every request about 1 KiB of garbage (issue 21).

import type { RequestContext as ConnectionRequestContext } from '../../jsonrpc/connection.js';
import type { AskOptions, TaskStarter } from '../context.js';
import { invalidParams, missingCapabilityError } from '../errors.js';
import { Extension, type Extensions, extensionsOf, negotiateExtensions } from '../extensions.js';
import { logMessage } from '../logging.js';
import { Notification } from '../methods.js';
import { type ContextSource, RequestSource } from '../request-context.js';
import { InputRequired, type RequestEnvelope } from '../stateless.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../types.js';
import type { EraHost } from './era.js';

/** The answers of a request that carries none (most): one object, never written. */
const NO_ANSWERS: Record<string, unknown> = Object.freeze({});

export class StatelessRequestSource extends RequestSource implements ContextSource {
  readonly tasks: TaskStarter | undefined;
  private opened: Record<string, unknown> | undefined;
  private asked = 0;
  /** The answers the handler took this round: the only ones the next state carries on. */
  private used: Record<string, unknown> | undefined;
  /** Asks still unanswered when the handler gave up: they go out together, answered in one round. */
  private pending: Record<string, { method: string; params: unknown }> | undefined;
  private negotiated: Extensions | undefined;
  private state: Map<unknown, unknown> | undefined;

  constructor(
    private readonly host: EraHost,
    private readonly method: string,
    private readonly params: Record<string, unknown>,
    private readonly envelope: RequestEnvelope,
    request: ConnectionRequestContext,
  ) {
    super(request);
    // A request may become a task when the server runs tasks and the client declared the extension on it.
    const manager = host.server.tasks;
    if (manager && Extension.Tasks in extensionsOf(envelope.clientCapabilities)) {
      this.tasks = {
        start: (work) =>
          manager.start(work, {
            requestId: request.id,
            protocolVersion: envelope.protocolVersion,
            clientCapabilities: envelope.clientCapabilities,
            clientInfo: envelope.clientInfo,
            auth: request.auth,
            extensions: this.extensions,
          }),
      };
    }
  }

  get protocolVersion(): string {
    return this.envelope.protocolVersion;
  }
  get clientCapabilities(): ClientCapabilities {
    return this.envelope.clientCapabilities;
  }
  get clientInfo(): Implementation | undefined {
    return this.envelope.clientInfo;
  }
  /** A request's own storage (a 2026-07-28 request has no session), made only if its handler looks. */
  get sessionState(): Map<unknown, unknown> {
    this.state ??= new Map();
    return this.state;
  }
  get extensions(): Extensions {
    this.negotiated ??= negotiateExtensions(
      extensionsOf(this.host.server.capabilities()),
      extensionsOf(this.envelope.clientCapabilities),
    );
    return this.negotiated;
  }

  /**
   * The answers the client sent back for this request: its requestState checked (this server's, for this
   * request, not expired) and its inputResponses. Throws -32602 for a state that fails a check.
   */
  answers(): Record<string, unknown> {
    if (this.opened) return this.opened;
    const { requestState, inputResponses } = this.params;
    this.opened =
      requestState === undefined && inputResponses === undefined
        ? NO_ANSWERS
        : {
            ...this.host.requestState.open(this.method, this.params, requestState),
            ...inputResponsesOf(inputResponses),
          };
    return this.opened;
  }

  sendProgress(update: { progress: number; total?: number; message?: string }): void {
    this.request.sendProgress(update);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    // Logging is per request here: only when the request asked for it, at its level.
    const asked = this.envelope.logLevel;
    if (!asked) return;
    const message = logMessage(level, data, logger, asked);
    if (message) {
      this.host.connection.notify(Notification.Message, message, { relatedRequestId: this.request.id });
    }
  }

  ask<T>(method: string, params: unknown, options?: AskOptions): Promise<T> {
    // Unnamed asks are keyed by order: the same handler code asks in the same order on every round.
    const key = options?.key ?? `${method}#${++this.asked}`;
    let known: Record<string, unknown>;
    try {
      known = this.answers();
    } catch (error) {
      return Promise.reject(error);
    }
    if (key in known) {
      this.used ??= {};
      this.used[key] = known[key];
      return Promise.resolve(known[key] as T);
    }
    this.pending ??= {};
    this.pending[key] = { method, params };
    return Promise.reject(new InputRequired(key, { method, params }));
  }

  missingCapability(capability: string, method: string): Error {
    return missingCapabilityError(capability, method, 'this request');
  }

  /** The result of a round that ended on an ask not answered yet: every pending ask, and the state so far. */
  inputRequired(error: InputRequired): Record<string, unknown> {
    return {
      resultType: 'input_required',
      inputRequests: { ...this.pending, [error.key]: error.request },
      requestState: this.host.requestState.seal(this.method, this.params, this.used ?? {}),
    };
  }
}

function inputResponsesOf(responses: unknown): Record<string, unknown> {
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
