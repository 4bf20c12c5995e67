// A transport over any pair of byte streams: frames in with FrameDecoder, frames out with FrameWriter.
// The stdio server transport and the child-process transport are this, plus process handling.

import type { Readable } from 'node:stream';
import { type CloseReason, formatCloseReason } from '../jsonrpc/errors.js';
import { MessageTooLargeError } from '../jsonrpc/local-errors.js';
import type { JsonRpcPayload } from '../jsonrpc/messages.js';
import { releaseStreamed, type SplicedJson, serializeSpliced, streamedPending } from '../jsonrpc/streamed.js';
import { DEFAULT_MAX_MESSAGE_SIZE, FrameDecoder, type Framing } from './framing/decoder.js';
import { ExactIds } from './framing/exact-ids.js';
import { peekEnvelope } from './framing/peek.js';
import { type ByteSink, FrameWriter } from './framing/writer.js';

export type { ByteSink };

import type { SendOptions, Transport, TransportHandlers } from '../jsonrpc/transport.js';

export interface StreamTransportOptions {
  /** Largest frame accepted, in bytes (256 MiB). A larger one is skipped and answered with an error. */
  maxMessageSize?: number;
  /**
   * The framing to write. Unset, a transport answers in the framing its peer used, and writes
   * newline-delimited JSON until the peer has sent anything.
   */
  framing?: Framing;
}

export class StreamTransport implements Transport {
  /** Messages with StreamedString values are written as the values are read (framing/writer.ts). */
  readonly splicing = true;
  protected handlers: TransportHandlers | undefined;
  private readonly decoder: FrameDecoder;
  private readonly writer: FrameWriter;
  private closeReason: CloseReason | undefined;
  private readonly closeWaiters: Array<() => void> = [];
  /** Integer ids beyond 2^53, kept as written and echoed so (see exact-ids.ts). */
  private readonly exactIds = new ExactIds();

  constructor(
    private readonly input: Readable,
    output: ByteSink,
    private readonly options: StreamTransportOptions = {},
  ) {
    this.decoder = new FrameDecoder(
      {
        frame: (text) => this.receiveFrame(text),
        oversize: (head, size, limit) => {
          const { id, role } = peekEnvelope(head);
          this.handlers?.frameError({
            kind: 'oversize',
            message: `message of ${size} bytes exceeds the maximum message size of ${limit} bytes; raise the "maxMessageSize" option to accept it`,
            size,
            limit,
            id,
            role,
          });
        },
        framingError: (message, excerpt) => this.handlers?.frameError({ kind: 'framing', message, excerpt }),
      },
      { maxMessageSize: options.maxMessageSize },
    );
    this.writer = new FrameWriter(output, () => this.options.framing ?? this.decoder.framing ?? 'newline');
    this.writer.onSpliceFailure = (error) => this.finish({ message: error.message, cause: error });
  }

  /** The framing the peer was detected to use, once it has sent anything. */
  get peerFraming(): Framing | undefined {
    return this.decoder.framing;
  }

  get closed(): CloseReason | undefined {
    return this.closeReason;
  }

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    this.input.on('data', (chunk: Buffer | string) => {
      this.decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    });
    this.input.on('end', () => {
      this.decoder.end();
      this.inputEnded();
    });
    this.input.on('error', (error) =>
      this.finish({ message: `read failed: ${error.message}`, cause: error }),
    );
  }

  send(payload: JsonRpcPayload, options?: SendOptions): void {
    if (this.closeReason) {
      if (streamedPending()) releaseStreamed(payload);
      return;
    }
    // A peer that is not reading gets no more best-effort messages: they would only pile up here.
    if (options?.droppable && this.writer.blocked) return;
    if (streamedPending()) {
      const spliced = serializeSpliced(payload);
      if (spliced.values.length > 0) this.sendSpliced(spliced);
      else this.sendText(this.exactIds.write(spliced.texts[0]!));
      return;
    }
    this.sendText(this.exactIds.write(JSON.stringify(payload)));
  }

  private sendText(text: string): void {
    // The limit holds for what we write as for what we read: a peer with the same limit would drop a
    // larger line. UTF-8 takes at most 3 bytes per UTF-16 unit, so most messages are never measured.
    const limit = this.options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
    if (text.length * 3 > limit) {
      const size = Buffer.byteLength(text);
      if (size > limit) throw new MessageTooLargeError(size, limit);
    }
    this.writer.write(text);
  }

  /** A message with streamed values: the limit is checked on their sizes before anything is written. */
  private sendSpliced({ texts, values }: SplicedJson): void {
    const limit = this.options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
    let size = 0;
    for (const text of texts) size += Buffer.byteLength(text);
    for (const value of values) size += value.encodedLength;
    if (size > limit) {
      for (const value of values) value.release();
      throw new MessageTooLargeError(size, limit);
    }
    this.writer.writeSpliced({ texts: texts.map((text) => this.exactIds.write(text)), values });
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  async close(): Promise<void> {
    if (this.closeReason) return;
    await this.writer.flush();
    this.finish({ message: 'closed' });
  }

  /** Called when the input stream ends; subclasses decide what that means for them. */
  protected inputEnded(): void {
    this.handlers?.inputEnded?.();
  }

  /** The output stream failed: nothing more can be sent. */
  protected outputFailed(error: Error): void {
    this.writer.fail(error);
    this.finish({ message: `write failed: ${error.message}`, cause: error });
  }

  /** Marks the transport closed and tells the handlers, once. */
  protected finish(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    this.writer.fail(new Error(formatCloseReason(reason)));
    this.input.removeAllListeners('data');
    this.handlers?.closed(reason);
    for (const resolve of this.closeWaiters.splice(0)) resolve();
  }

  /** Resolves when the transport has closed, for whatever reason. */
  whenClosed(): Promise<void> {
    if (this.closeReason) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  private receiveFrame(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.handlers?.frameError({
        kind: 'parse',
        message: `Parse error: ${(error as Error).message}`,
        excerpt: text.length > 200 ? `${text.slice(0, 200)}…` : text,
      });
      return;
    }
    this.handlers?.message(this.exactIds.read(value, text));
  }
}
