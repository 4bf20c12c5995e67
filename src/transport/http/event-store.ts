// Where a Streamable HTTP server keeps the events it sent on each SSE stream, so that a client that lost
// its connection can resume with Last-Event-ID and miss nothing. In memory by default; implement the
// interface to keep them elsewhere.

import type { JsonRpcMessage } from '../../jsonrpc/messages.js';

export interface EventStore {
  /** Stores one message sent on `streamId` and returns its event id (unique across streams). */
  storeEvent(streamId: string, message: JsonRpcMessage | undefined): Promise<string> | string;
  /** The stream an event id belongs to, or undefined for an unknown id. */
  streamOf(eventId: string): Promise<string | undefined> | string | undefined;
  /** Replays, in order, the messages stored on that event's stream after it. */
  replayAfter(
    eventId: string,
    send: (eventId: string, message: JsonRpcMessage) => void,
  ): Promise<void> | void;
  /** Forgets a stream that can no longer be resumed (its session ended). Optional. */
  dropStream?(streamId: string): Promise<void> | void;
}

export interface InMemoryEventStoreOptions {
  /** Events kept per stream; the oldest are dropped first (1000). */
  maxEventsPerStream?: number;
  /**
   * Streams kept in all; the stream that was started first is forgotten first (10 000). Every POST that
   * carries requests opens a stream, so without a bound a long-lived server would keep them all.
   */
  maxStreams?: number;
}

export class InMemoryEventStore implements EventStore {
  /**
   * Made on first use and let go when empty: the endpoint makes a store per session, and most sessions
   * hold no events most of the time (a stream's events go once it was written to the end).
   */
  private streams: Map<string, Array<{ id: string; message: JsonRpcMessage | undefined }>> | undefined;
  private counter = 0;

  constructor(private readonly options: InMemoryEventStoreOptions = {}) {}

  storeEvent(streamId: string, message: JsonRpcMessage | undefined): string {
    const id = `${streamId}.${++this.counter}`;
    this.streams ??= new Map();
    const streams = this.streams;
    let events = streams.get(streamId);
    if (!events) {
      events = [];
      streams.set(streamId, events);
      const maxStreams = this.options.maxStreams ?? 10_000;
      // A Map iterates in insertion order: the first key is the oldest stream.
      while (streams.size > maxStreams) streams.delete(streams.keys().next().value!);
    }
    events.push({ id, message });
    const max = this.options.maxEventsPerStream ?? 1000;
    if (events.length > max) events.splice(0, events.length - max);
    return id;
  }

  streamOf(eventId: string): string | undefined {
    const dot = eventId.lastIndexOf('.');
    const streamId = dot === -1 ? undefined : eventId.slice(0, dot);
    return streamId !== undefined && this.streams?.has(streamId) ? streamId : undefined;
  }

  replayAfter(eventId: string, send: (eventId: string, message: JsonRpcMessage) => void): void {
    const streamId = this.streamOf(eventId);
    if (streamId === undefined) return;
    const events = this.streams?.get(streamId) ?? [];
    const index = events.findIndex((e) => e.id === eventId);
    for (const event of events.slice(index + 1)) if (event.message) send(event.id, event.message);
  }

  /** Forgets a stream. */
  dropStream(streamId: string): void {
    this.streams?.delete(streamId);
    if (this.streams?.size === 0) this.streams = undefined;
  }

  /** How many streams are kept (for tests and monitoring). */
  get size(): number {
    return this.streams?.size ?? 0;
  }
}
