// A server process driven byte by byte over its stdin and stdout, for the filesystem server's end-to-end
// tests: writes raw frames (newline-delimited JSON or Content-Length), parses what comes back strictly in
// the same framing, and records anything on stdout that is not a well-formed JSON-RPC frame.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

export type Framing = 'newline' | 'content-length';

export interface WireMessage {
  jsonrpc?: unknown;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export function frame(json: string, framing: Framing): string {
  return framing === 'newline' ? `${json}\n` : `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
}

export class WireProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every message the server wrote, in order. */
  readonly messages: WireMessage[] = [];
  /** What on stdout was not a well-formed frame holding a JSON-RPC 2.0 message. */
  readonly violations: string[] = [];
  readonly exited: Promise<Exit>;
  stderr = '';
  private pending = Buffer.alloc(0);
  private readonly waiters: Array<{ test: (m: WireMessage) => boolean; resolve: (m: WireMessage) => void }> =
    [];
  private exit: Exit | undefined;

  constructor(
    command: string,
    args: string[],
    readonly options: { cwd: string; framing: Framing; env?: NodeJS.ProcessEnv },
  ) {
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.stderr += text;
    });
    this.exited = new Promise<Exit>((resolve, reject) => {
      this.child.on('error', reject);
      this.child.on('close', (code, signal) => {
        this.exit = { code, signal };
        if (this.pending.length > 0) this.violations.push(`unterminated output: ${this.pending.toString()}`);
        resolve(this.exit);
      });
    });
    // A test that fails midway must not leave the process behind.
    this.exited.catch(() => undefined);
  }

  /** Writes bytes exactly as given. */
  writeRaw(text: string): void {
    this.child.stdin.write(text);
  }

  /** Writes one message (its JSON text exactly as given) in this process's framing. */
  send(json: string): void {
    this.writeRaw(frame(json, this.options.framing));
  }

  /** Closes stdin. */
  end(): void {
    this.child.stdin.end();
  }

  /** The first message (already received or to come) that passes `test`. */
  waitFor(test: (m: WireMessage) => boolean, what: string, timeoutMs = 15_000): Promise<WireMessage> {
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise<WireMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(
          new Error(
            `no ${what} within ${timeoutMs} ms; received ${JSON.stringify(this.messages)}; stderr: ${this.stderr}`,
          ),
        );
      }, timeoutMs);
      const waiter = {
        test,
        resolve: (m: WireMessage) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      this.waiters.push(waiter);
      // Fail at once rather than at the timeout if the process is gone.
      void this.exited.then((exit) => {
        if (!this.waiters.includes(waiter)) return;
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        clearTimeout(timer);
        reject(
          new Error(`the process exited (${JSON.stringify(exit)}) before ${what}; stderr: ${this.stderr}`),
        );
      });
    });
  }

  /** The response to request `id`. */
  response(id: string | number | null): Promise<WireMessage> {
    return this.waitFor(
      (m) => m.id === id && m.method === undefined,
      `a response to id ${JSON.stringify(id)}`,
    );
  }

  /** Ends stdin and waits for the exit, killing the process if it outlives `timeoutMs`. */
  async finish(timeoutMs = 15_000): Promise<Exit> {
    this.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Kills the process if it still runs (cleanup after a failed test). */
  kill(): void {
    if (this.exit === undefined) this.child.kill('SIGKILL');
  }

  private receive(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    for (;;) {
      const body = this.options.framing === 'newline' ? this.takeLine() : this.takeContentLength();
      if (body === undefined) return;
      this.accept(body);
    }
  }

  private takeLine(): string | undefined {
    const nl = this.pending.indexOf(0x0a);
    if (nl === -1) return undefined;
    const line = this.pending.toString('utf8', 0, nl);
    this.pending = this.pending.subarray(nl + 1);
    return line;
  }

  private takeContentLength(): string | undefined {
    const end = this.pending.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const header = this.pending.toString('latin1', 0, end);
    const match = /^Content-Length: (\d+)$/i.exec(header);
    if (!match) {
      this.violations.push(`not a Content-Length header: ${JSON.stringify(header)}`);
      this.pending = this.pending.subarray(end + 4);
      return undefined;
    }
    const length = Number(match[1]);
    if (this.pending.length < end + 4 + length) return undefined;
    const body = this.pending.toString('utf8', end + 4, end + 4 + length);
    this.pending = this.pending.subarray(end + 4 + length);
    return body;
  }

  private accept(text: string): void {
    let message: WireMessage;
    try {
      message = JSON.parse(text) as WireMessage;
    } catch {
      this.violations.push(`not JSON: ${text}`);
      return;
    }
    if (typeof message !== 'object' || message === null || message.jsonrpc !== '2.0') {
      this.violations.push(`not a JSON-RPC 2.0 message: ${text}`);
      return;
    }
    this.messages.push(message);
    for (const waiter of [...this.waiters]) {
      if (waiter.test(message)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  }
}
