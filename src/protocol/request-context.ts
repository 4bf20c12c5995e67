// Builds the one context a handler gets, from what an era knows about the request: the handshake era
// from its session, the stateless era from the request's own envelope. The era decides how to log and
// how to ask the client; the handler never sees the difference.

import type { JsonRpcId } from '../jsonrpc/messages.js';
import type { AskOptions, RequestContext } from './context.js';
import { CapabilityError } from './errors.js';
import { Method } from './methods.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from './types.js';

type ProgressUpdate = { progress: number; total?: number; message?: string };

export interface ContextSource {
  requestId: JsonRpcId;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  sessionState: Map<unknown, unknown>;
  signal: AbortSignal;
  sendProgress(update: ProgressUpdate): void;
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** Sends a request to the client (or asks for it through an input_required result). */
  ask<T>(method: string, params: unknown, options?: AskOptions): Promise<T>;
  /** How a missing client capability is reported in this era. */
  missingCapability(capability: string, method: string): Error;
}

export function buildContext(source: ContextSource): RequestContext {
  let lastProgress = Number.NEGATIVE_INFINITY;
  const capabilities = source.clientCapabilities;
  const ask = <T>(method: string, capability: string, params: unknown, options?: AskOptions): Promise<T> => {
    if (!(capability in capabilities)) return Promise.reject(source.missingCapability(capability, method));
    return source.ask<T>(method, params, options);
  };
  return {
    // A getter, so the connection makes the request's AbortController only if a handler asks for it.
    get signal() {
      return source.signal;
    },
    requestId: source.requestId,
    protocolVersion: source.protocolVersion,
    clientCapabilities: capabilities,
    clientInfo: source.clientInfo,
    sessionState: source.sessionState,
    progress: (progress, total, message) => {
      // The specification requires progress to increase with every notification.
      if (!(progress > lastProgress)) return;
      lastProgress = progress;
      const update: ProgressUpdate = { progress };
      if (total !== undefined) update.total = total;
      if (message !== undefined) update.message = message;
      source.sendProgress(update);
    },
    log: (level, data, logger) => source.log(level, data, logger),
    sample: (params, options) => ask(Method.SamplingCreateMessage, 'sampling', params, options),
    elicit: (params, options) => {
      if (params.mode === 'url') {
        const elicitation = capabilities.elicitation as Record<string, unknown> | undefined;
        if (!elicitation || !('url' in elicitation)) {
          return Promise.reject(source.missingCapability('elicitation.url', Method.ElicitationCreate));
        }
      }
      return ask(Method.ElicitationCreate, 'elicitation', params, options);
    },
    listRoots: (options) => ask(Method.RootsList, 'roots', {}, options),
  };
}

export function legacyMissingCapability(capability: string, method: string): Error {
  return new CapabilityError(capability, method);
}
