// The requestState of a multi round-trip request (2026-07-28), signed. The state travels through the
// client between rounds, so the server must treat what comes back as the client's word: it carries the
// answers collected so far, and a client that could edit it could make a handler believe it had asked a
// question, or got an answer, that it never did. So the server signs it (HMAC-SHA256), binds it to the
// request it belongs to (the method and the request's own params: tool name and arguments, a URI, a
// prompt's name and arguments) and gives it an expiry. A state that fails any of the three is refused with
// -32602 (Invalid params), as the specification asks of a state that fails its integrity check.
//
// The key ring lets servers behind one load balancer share keys and rotate them: the first key signs,
// every key verifies, so a state signed just before a rotation still works until it expires. Without
// keys, a random key per process: enough for one process, and a state cannot outlive it.

import { nodeCrypto } from '../transport/platform/builtins.js';
import { invalidParams } from './errors.js';

export interface RequestStateOptions {
  /** Signing keys: the first signs, every one verifies (put the new key first to rotate). */
  keys: Array<string | Uint8Array>;
  /** How long a state stays valid after it was issued, in ms (10 minutes). */
  maxAgeMs?: number;
}

const DEFAULT_MAX_AGE_MS = 10 * 60_000;
const VERSION = 'v1';
/** Params that carry the round trip itself, not the request: they are not part of what a state is bound to. */
const ROUND_TRIP_KEYS = new Set(['_meta', 'inputResponses', 'requestState']);

interface Payload {
  /** The answers collected so far, keyed like the input requests they answer. */
  a: Record<string, unknown>;
  /** The digest of the request the state belongs to. */
  r: string;
  /** When the state expires, in ms since the epoch. */
  e: number;
}

export class RequestStateSeal {
  private readonly keys: Buffer[];
  private readonly maxAgeMs: number;

  constructor(options: RequestStateOptions) {
    const keys = options.keys;
    if (keys.length === 0) throw new TypeError('requestState.keys needs at least one key');
    this.keys = keys.map((key) => (typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key)));
    if (this.keys.some((key) => key.length === 0))
      throw new TypeError('requestState.keys holds an empty key');
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  }

  /** Signs the answers so far for this request (its method and params). */
  seal(method: string, params: Record<string, unknown>, answers: Record<string, unknown>): string {
    const payload: Payload = { a: answers, r: requestDigest(method, params), e: Date.now() + this.maxAgeMs };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${VERSION}.${body}.${mac(this.keys[0]!, body).toString('base64url')}`;
  }

  /**
   * The answers a state carries, once it is known to be this server's, for this request and still valid;
   * no state at all is no answers. Anything else is refused with -32602 saying which check failed.
   */
  open(method: string, params: Record<string, unknown>, state: unknown): Record<string, unknown> {
    if (state === undefined) return {};
    const refuse = (why: string) =>
      invalidParams(`Invalid params: requestState ${why}; send the request again without it to start over`);
    if (typeof state !== 'string') throw refuse('must be the string the input_required result carried');
    const [version, body, signature, extra] = state.split('.');
    if (version !== VERSION || !body || !signature || extra !== undefined) {
      throw refuse('is not one this server issued');
    }
    const given = Buffer.from(signature, 'base64url');
    const signed = this.keys.some((key) => {
      const expected = mac(key, body);
      return expected.length === given.length && nodeCrypto().timingSafeEqual(expected, given);
    });
    if (!signed)
      throw refuse('failed its integrity check (altered, or signed with a key this server does not hold)');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    if (payload.r !== requestDigest(method, params)) throw refuse('belongs to another request');
    if (!(Date.now() < payload.e)) throw refuse('has expired');
    return payload.a;
  }
}

function mac(key: Buffer, body: string): Buffer {
  return nodeCrypto().createHmac('sha256', key).update(body).digest();
}

/** The method and the request's own params, without the round-trip keys, in a canonical form. */
function requestDigest(method: string, params: Record<string, unknown>): string {
  const own = Object.fromEntries(Object.entries(params).filter(([key]) => !ROUND_TRIP_KEYS.has(key)));
  return nodeCrypto()
    .createHash('sha256')
    .update(method)
    .update('\n')
    .update(canonicalJson(own))
    .digest('base64url');
}

/** JSON with the keys of every object sorted, so that the same params give the same digest. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

let processSeal: RequestStateSeal | undefined;

/** The seal of servers given no keys: one random key per process, made on first use. */
export function processRequestStateSeal(): RequestStateSeal {
  if (!processSeal) {
    processSeal = new RequestStateSeal({ keys: [nodeCrypto().randomBytes(32)] });
  }
  return processSeal;
}
