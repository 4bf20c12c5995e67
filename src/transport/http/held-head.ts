// An SSE stream of a POST holds its head until the end of the turn that opened it (issue 21). A request
// answered within that turn, the usual case, is then written as one complete body with its length, in one
// write, as cheap as a JSON body: no priming event, no event ids, nothing stored for resumption, since the
// client never had an event id to resume from and gets the whole stream at once. A stream still open when
// the turn ends gets its head then, and from there is primed, stored and chunked as any other.

import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../../jsonrpc/messages.js';
import { releaseStreamed, streamedPending } from '../../jsonrpc/streamed.js';
import { SSE_HEADERS } from './sse.js';
import { asSseEvent, writeWholeBody } from './whole-body.js';

/** A stream whose head may still be held. */
export interface HeldStream {
  response: ServerResponse | undefined;
  headers: Record<string, string>;
  /** The messages written while the head is held (not stored, not formatted); undefined once it is out. */
  held?: JsonRpcMessage[];
  /** Who opens the stream for good, until asked to. */
  holder?: HeadHolder;
}

/** Opens a held stream for good: writes its head, primes it and writes its held messages. */
export interface HeadHolder {
  openHeld(stream: HeldStream): void;
}

/**
 * Messages a stream may hold; the next one releases it. A turn is short, but a handler that sends in a
 * loop without waiting would otherwise have all it sends kept here, out of reach of the backlog limit.
 */
const MAX_HELD = 64;

/** Streams still holding their head when their turn's work was done, released together when it ends. */
const holding = new Set<HeldStream>();
let releasing = false;

/** Holds the stream's head, and the messages written next, until it ends or is released. */
export function holdHead(stream: HeldStream, holder: HeadHolder): void {
  stream.held = [];
  stream.holder = holder;
}

/**
 * Releases the stream when the turn ends, if it still holds its head then. Asked only of a stream whose
 * request did not answer at once (one timer for them all): one that did costs no timer at all.
 */
export function releaseAtTurnEnd(stream: HeldStream): void {
  if (stream.held === undefined) return;
  holding.add(stream);
  if (releasing) return;
  releasing = true;
  setImmediate(releaseAll);
}

/** Keeps a message on a held stream; false if the head is out (the caller writes it as usual). */
export function holdMessage(stream: HeldStream, message: JsonRpcMessage): boolean {
  const held = stream.held;
  if (held === undefined) return false;
  held.push(message);
  if (held.length >= MAX_HELD) release(stream);
  return true;
}

/** The messages held, and the stream no longer holds its head (the caller writes it now). */
export function takeHeld(stream: HeldStream): JsonRpcMessage[] {
  const held = stream.held ?? [];
  stream.held = undefined;
  stream.holder = undefined;
  if (holding.size > 0) holding.delete(stream);
  return held;
}

/**
 * Ends the stream: a held one as one body (events without ids) with its length, or spliced around the
 * streamed values it carries (whole-body.ts); else its chunked end.
 */
export function endSse(stream: HeldStream): void {
  const response = stream.response;
  if (stream.held === undefined) {
    response?.end();
    return;
  }
  const held = takeHeld(stream);
  if (!response) {
    // Nobody will read it: a streamed value in it (a file) is closed unread.
    if (streamedPending()) releaseStreamed(held);
    return;
  }
  writeWholeBody(response, 200, stream.headers, SSE_HEADERS, held.map(asSseEvent));
}

/**
 * Asks the stream's holder to open it, once: the holder may get to it only after the stream's earlier
 * writes, and the messages written meanwhile are still held (takeHeld ends the holding).
 */
function release(stream: HeldStream): void {
  const holder = stream.holder;
  holding.delete(stream);
  if (!holder) return;
  stream.holder = undefined;
  holder.openHeld(stream);
}

function releaseAll(): void {
  releasing = false;
  for (const stream of holding) release(stream);
}
