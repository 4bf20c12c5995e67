// What a client answers when a server asks something of it: sampling, elicitation, roots. One table for
// both eras: the handshake era's server-to-client requests and the stateless era's input_required rounds
// are answered by the same code, with the callbacks the user supplied. A capability is declared only when
// its callback is there.

import { ErrorCode } from '../jsonrpc/error-codes.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import { McpwireError } from '../jsonrpc/local-errors.js';
import { Method } from '../protocol/methods.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Root,
} from '../protocol/types.js';
import { applySchemaDefaults } from './elicitation-defaults.js';

export interface ClientHandlerContext {
  signal: AbortSignal;
  /**
   * The `tag` of the call (CallOptions) the server asks this for, when that is known: an input_required
   * round of that call, or a request that came on that call's own HTTP stream. A server on stdio names
   * no call of the client's.
   */
  tag?: unknown;
}

/** The callbacks that answer a server's requests. */
export interface ClientAnswerCallbacks {
  /** Answers sampling/createMessage; declares the `sampling` capability. */
  onSampling?: (
    params: CreateMessageRequestParams,
    context: ClientHandlerContext,
  ) => Promise<CreateMessageResult>;
  /** Answers elicitation/create; declares the `elicitation` capability (form mode, and url with `elicitationUrl`). */
  onElicitation?: (params: ElicitRequestParams, context: ClientHandlerContext) => Promise<ElicitResult>;
  /** Whether `onElicitation` handles URL-mode elicitations too. */
  elicitationUrl?: boolean;
  /** Answers roots/list; declares the `roots` capability (with listChanged). */
  roots?: () => Root[] | Promise<Root[]>;
}

type Answer = (params: Record<string, unknown>, context: ClientHandlerContext) => Promise<unknown>;

export class ClientAnswers {
  private readonly table = new Map<string, Answer>();

  constructor(
    private readonly callbacks: ClientAnswerCallbacks,
    /** The extensions the client declares (SEP-2133), with their settings. */
    private readonly extensions: Record<string, Record<string, unknown>> = {},
  ) {
    const { onSampling, onElicitation, roots } = callbacks;
    if (onSampling) {
      this.table.set(Method.SamplingCreateMessage, (params, context) =>
        onSampling(params as unknown as CreateMessageRequestParams, context),
      );
    }
    if (onElicitation) {
      this.table.set(Method.ElicitationCreate, async (params, context) => {
        const request = params as unknown as ElicitRequestParams;
        this.checkElicitationMode(request);
        const answer = await onElicitation(request, context);
        return request.mode === 'url' ? answer : applySchemaDefaults(request.requestedSchema, answer);
      });
    }
    if (roots) this.table.set(Method.RootsList, async () => ({ roots: await roots() }));
  }

  /** The methods this client answers. */
  methods(): IterableIterator<[string, Answer]> {
    return this.table.entries();
  }

  /** Answers one request of the server; a method without a callback is refused with a clear message. */
  answer(method: string, params: Record<string, unknown>, context: ClientHandlerContext): Promise<unknown> {
    const answer = this.table.get(method);
    if (answer) return answer(params, context);
    return Promise.reject(new McpwireError('UNANSWERABLE_REQUEST', missing(method)));
  }

  capabilities(): ClientCapabilities {
    const { onSampling, onElicitation, elicitationUrl, roots } = this.callbacks;
    const capabilities: ClientCapabilities = {};
    if (onSampling) capabilities.sampling = {};
    if (onElicitation) capabilities.elicitation = elicitationUrl ? { form: {}, url: {} } : { form: {} };
    if (roots) capabilities.roots = { listChanged: true };
    if (Object.keys(this.extensions).length > 0) capabilities.extensions = { ...this.extensions };
    return capabilities;
  }

  /**
   * A URL-mode elicitation reaches the callback only when the client declared URL mode (`elicitationUrl`):
   * otherwise a form-only callback would be handed a request without a schema (and could "accept" a
   * sign-in it never showed). Refused as invalid params, as the official SDK does.
   */
  private checkElicitationMode(request: ElicitRequestParams): void {
    if (request.mode === 'url' && !this.callbacks.elicitationUrl) {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        'this client does not support URL mode elicitation (it declared form mode only; set elicitationUrl to handle URL mode)',
      );
    }
  }
}

function missing(method: string): string {
  switch (method) {
    case Method.SamplingCreateMessage:
      return 'the server asked for sampling, but this client has no onSampling callback';
    case Method.ElicitationCreate:
      return 'the server asked for user input (elicitation), but this client has no onElicitation callback';
    case Method.RootsList:
      return 'the server asked for roots, but this client has no roots callback';
    default:
      return `the server asked for "${method}", which a client cannot answer`;
  }
}
