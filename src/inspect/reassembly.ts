// Frames that are not JSON on their own may be one message split by raw newlines (a pitfall the seed
// names: a newline inside a JSON string written as is). The reassembler gathers such lines while their
// brackets and strings can still make one JSON value, and reports what each frame turned out to be: a
// message, a message that raw newlines split, or lines that are not JSON. The wire monitor uses one per
// direction.

import { DEFAULT_MAX_MESSAGE_SIZE } from '../transport/framing/decoder.js';

const EXCERPT = 240;

/** The start of some bytes, for a report. */
export function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
}

/**
 * Follows strings and brackets across the lines of a message split by raw newlines, to tell when the
 * lines gathered so far can make one whole JSON value (and whether a raw newline fell inside a string).
 */
class Scan {
  depth = 0;
  inString = false;
  private escaped = false;

  /** Feeds one line; false when its brackets cannot belong to one JSON value. */
  feed(text: string): boolean {
    this.escaped = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
      } else if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if ((c === 0x7d || c === 0x5d) && --this.depth < 0) return false;
    }
    return true;
  }

  get complete(): boolean {
    return this.depth === 0 && !this.inString;
  }
}

/** Lines that are not JSON on their own, gathered while they may be one message split by raw newlines. */
interface Gathering {
  lines: string[];
  /** The lines joined as the message would read with its raw newlines escaped (inside strings) or kept. */
  joined: string;
  scan: Scan;
}

export interface ReassemblyEvents {
  /** A whole JSON value (a message, a batch, or anything else that parses). */
  value(payload: unknown): void;
  /** A message that raw newlines split across `lines` lines; `value` follows with what it parsed to. */
  rawNewline(lines: number, bytes: string): void;
  /** `lines` lines that are not JSON: `text`, joined by newlines when there are several. */
  notJson(text: string, lines: number): void;
}

const NOT_JSON: unique symbol = Symbol('not JSON');

export class LineReassembler {
  private gathering: Gathering | undefined;

  constructor(
    private readonly events: ReassemblyEvents,
    /** Whether a parsed value looks like a message: such a line never continues a broken one. */
    private readonly isMessageLike: (value: unknown) => boolean,
  ) {}

  /** Lines gathered so far that may still complete one message. */
  get pendingLines(): number {
    return this.gathering?.lines.length ?? 0;
  }

  frame(text: string): void {
    let payload: unknown = NOT_JSON;
    try {
      payload = JSON.parse(text);
    } catch {
      // Not JSON on its own; see below.
    }
    const gathering = this.gathering;
    if (gathering) {
      // A line that is a whole message on its own does not continue a broken one; any other line may.
      if (payload === NOT_JSON || !this.isMessageLike(payload)) {
        this.gather(gathering, text);
        return;
      }
      this.flush();
    }
    if (payload !== NOT_JSON) {
      this.events.value(payload);
      return;
    }
    // Not JSON: perhaps the first line of a message that raw newlines split.
    const scan = new Scan();
    if (/^\s*[{[]/.test(text) && scan.feed(text) && !scan.complete) {
      this.gathering = { lines: [text], joined: text, scan };
      return;
    }
    this.events.notJson(text, 1);
  }

  /** The lines gathered so far, reported as not JSON: the stream ended, or they cannot make a message. */
  flush(): void {
    const gathering = this.gathering;
    if (gathering === undefined) return;
    this.gathering = undefined;
    this.events.notJson(gathering.lines.join('\n'), gathering.lines.length);
  }

  private gather(gathering: Gathering, text: string): void {
    // A raw newline inside a string stands for "\n" there; between tokens it is only whitespace.
    gathering.joined += `${gathering.scan.inString ? '\\n' : '\n'}${text}`;
    gathering.lines.push(text);
    if (!gathering.scan.feed(text) || gathering.joined.length > DEFAULT_MAX_MESSAGE_SIZE) {
      this.flush();
      return;
    }
    if (!gathering.scan.complete) return;
    this.gathering = undefined;
    const bytes = gathering.lines.join('\n');
    let payload: unknown;
    try {
      payload = JSON.parse(gathering.joined);
    } catch {
      this.events.notJson(bytes, gathering.lines.length);
      return;
    }
    this.events.rawNewline(gathering.lines.length, bytes);
    this.events.value(payload);
  }
}
