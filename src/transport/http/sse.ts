// Server-Sent Events: writing events, and reading them from a byte stream (the client side).

/** The head of every SSE answer: the type, and no caching of a stream by anything between. */
export const SSE_HEADERS = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' };

/** A JSON body's type. */
export const JSON_HEADERS = { 'Content-Type': 'application/json' };

/**
 * A head: the caller's headers (a session id) with those of the answer's type, in a new object. Copied
 * key by key, not spread: in Node 20's V8 a spread that adds keys (`{ ...headers, ...SSE_HEADERS }`) takes
 * a slow path in the runtime, about 1 µs each, and Object.assign a generic one that was still a visible
 * part of every answer (issue 21).
 */
export function headOf(
  headers: Readonly<Record<string, string>>,
  type: Readonly<Record<string, string>>,
): Record<string, string | number> {
  const head: Record<string, string | number> = {};
  for (const name in headers) head[name] = headers[name]!;
  for (const name in type) head[name] = type[name]!;
  return head;
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** One event in the text/event-stream format. Data never contains raw newlines (it is compact JSON). */
export function formatSseEvent(event: SseEvent): string {
  let text = '';
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  // Compact JSON, the usual data, has no newline: no need to split it.
  if (!event.data.includes('\n')) text += `data: ${event.data}\n`;
  else for (const line of event.data.split('\n')) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** Parses a text/event-stream incrementally; call `push` with decoded text, get whole events back. */
export class SseParser {
  /** The text of the unfinished line, in the pieces it came in (joined once its newline arrives). */
  private partial: string[] = [];
  private partialLength = 0;
  private data: string[] = [];
  private dataLength = 0;
  private id: string | undefined;
  private event: string | undefined;
  private retry: number | undefined;

  /**
   * How much of an unfinished event is kept, in characters: a reader bounds it, since a peer that never
   * ends an event would otherwise be kept whole.
   */
  get pending(): number {
    return this.partialLength + this.dataLength;
  }

  push(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    // A line that is not finished yet is only kept: joining and searching it again on every piece was
    // quadratic in its length.
    if (!text.includes('\n')) {
      if (text !== '') {
        this.partial.push(text);
        this.partialLength += text.length;
      }
      return events;
    }
    const buffer = this.partial.length > 0 ? this.partial.join('') + text : text;
    this.partial = [];
    this.partialLength = 0;
    let start = 0;
    for (;;) {
      const nl = buffer.indexOf('\n', start);
      if (nl === -1) break;
      let line = buffer.slice(start, nl);
      start = nl + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (this.data.length > 0 || this.id !== undefined || this.retry !== undefined) {
          const event: SseEvent = { data: this.data.join('\n') };
          if (this.id !== undefined) event.id = this.id;
          if (this.event !== undefined) event.event = this.event;
          if (this.retry !== undefined) event.retry = this.retry;
          events.push(event);
        }
        this.data = [];
        this.dataLength = 0;
        this.event = undefined;
        this.retry = undefined;
        this.id = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') {
        this.data.push(value);
        this.dataLength += value.length + 1;
      } else if (field === 'id') this.id = value;
      else if (field === 'event') this.event = value;
      else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    }
    const rest = buffer.slice(start);
    if (rest !== '') {
      this.partial.push(rest);
      this.partialLength = rest.length;
    }
    return events;
  }
}
