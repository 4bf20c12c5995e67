// One front request sent on to a back server and its answer brought back: progress reported to the front,
// the front's cancellation passed on, the back server's own requests routed to this front request while it
// runs (BackLink), and a back that ends mid-call turned into an error that says so at once. The proxy and
// the gateway both forward through here.

import type { CallOptions } from '../client/call-options.js';
import type { McpClient } from '../client/client.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { ConnectionClosedError, JsonRpcError } from '../jsonrpc/errors.js';
import { McpwireError } from '../jsonrpc/local-errors.js';
import type { RequestContext } from '../protocol/context.js';
import { abortHookOf } from '../protocol/request-context.js';
import type { BackLink, InFlight } from './back-link.js';
import { forwardedParams, frontResult } from './results.js';

export interface ForwardOptions {
  /** Longest the back may take, in ms: the front client's own timeout governs first. */
  timeout: number;
  /** How errors name the back server: "the server behind the proxy", 'server "fs"'. */
  label: string;
  /** Whether the front speaks the handshake era (a 2026-07-28 result loses that revision's own fields). */
  handshakeFront: boolean;
  /** The front session the request came from: what the back asks goes to it. */
  owner: unknown;
}

export async function forwardCall(
  client: McpClient,
  link: BackLink,
  method: string,
  params: Record<string, unknown>,
  context: RequestContext,
  options: ForwardOptions,
): Promise<Record<string, unknown>> {
  // Only a 2026-07-28 front interrupts a call (its input_required round): that call needs a signal of
  // its own to cancel the back request with. A handshake front's call is cancelled by the front's own
  // cancellation: its AbortHook when the back is a handshake connection too (no AbortSignal is made for
  // the call, nor listened on: some 15 µs of a proxied call), its signal otherwise.
  const controller = options.handshakeFront ? undefined : new AbortController();
  const hook = controller || client.era !== 'handshake' ? undefined : abortHookOf(context);
  const signal = hook ? undefined : context.signal;
  let interrupted: Promise<never> | undefined;
  let cancel: (() => void) | undefined;
  let entry: InFlight;
  if (controller && signal) {
    let interrupt: (error: Error) => void = () => {};
    interrupted = new Promise<never>((_, reject) => {
      interrupt = reject;
    });
    cancel = () => controller.abort(signal.reason);
    signal.addEventListener('abort', cancel, { once: true });
    entry = {
      context,
      owner: options.owner,
      interrupt: (error) => {
        interrupt(error);
        controller.abort();
      },
    };
  } else {
    entry = { context, owner: options.owner, interrupt: () => {} };
  }
  const forget = link.track(entry);
  const call: CallOptions = {
    signal: controller?.signal ?? signal,
    abortHook: hook,
    timeout: options.timeout,
    maxTotalTimeout: options.timeout,
    // What the back server asks on this call's behalf comes back with it (BackLink).
    tag: entry,
  };
  // A 2026-07-28 front before a 2026-07-28 back hands the back's input rounds and tasks to its caller as
  // they are (the back's own keys, every request of a round together) and declares the caller's own
  // capabilities, so that the back asks only for what the caller can answer, and says so (-32021) if not.
  const passRounds = !options.handshakeFront && client.era === 'stateless';
  if (passRounds) {
    call.passThrough = true;
    call.capabilities = context.clientCapabilities;
  }
  const { params: sent, wantsProgress } = forwardedParams(params, passRounds);
  if (wantsProgress) call.onProgress = (p) => context.progress(p.progress, p.total, p.message);
  try {
    const request = client.request<Record<string, unknown>>(method, sent, call);
    const result = await (interrupted ? Promise.race([request, interrupted]) : request);
    return frontResult(result, client.era === 'stateless' && options.handshakeFront);
  } catch (error) {
    throw frontError(error, method, options.label);
  } finally {
    forget();
    if (cancel) signal?.removeEventListener('abort', cancel);
  }
}

/** An error of the back, as the front's client should see it: the server's own errors unchanged. */
export function frontError(error: unknown, method: string, label: string): unknown {
  if (error instanceof JsonRpcError || !(error instanceof Error)) return error;
  if (error.name === 'InputRequired') return error;
  if (error instanceof ConnectionClosedError) {
    return new JsonRpcError(
      ErrorCode.InternalError,
      `${label} ended before it answered "${method}": ${error.message.replace(/^connection closed before "[^"]*" was answered: /, '')}`,
    );
  }
  if (error instanceof McpwireError) {
    return new JsonRpcError(ErrorCode.InternalError, `${label} did not answer "${method}": ${error.message}`);
  }
  return error;
}
