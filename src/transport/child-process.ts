// The client side of stdio: spawn a server, write to its stdin, read its stdout, keep the tail of its
// stderr to explain a crash. Shutdown follows the MCP specification: close stdin, wait, SIGTERM, wait,
// SIGKILL; and it ends the whole process tree, so a server started through npx or a shell never survives.

import type { ChildProcess } from 'node:child_process';
import type { CloseReason } from '../jsonrpc/errors.js';
import type { JsonRpcPayload } from '../jsonrpc/messages.js';
import type { SendOptions, Transport, TransportHandlers } from '../jsonrpc/transport.js';
import { childProcess } from './platform/builtins.js';
import { defaultEnvironment } from './platform/environment.js';
import { releasePipesAfterExit } from './platform/pipes-after-exit.js';
import { killTree, spawnAsGroupLeader, trackTree } from './platform/process-tree.js';
import { StreamTransport, type StreamTransportOptions } from './stream.js';

export interface ChildProcessTransportOptions extends StreamTransportOptions {
  command: string;
  args?: string[];
  /** Added to the safe default environment (or to the whole parent environment with `inheritEnv`). */
  env?: Record<string, string>;
  /** Pass the parent's whole environment instead of the safe default (false). */
  inheritEnv?: boolean;
  cwd?: string;
  /**
   * What to do with the server's stderr besides keeping its tail: 'pipe' keeps it only (default),
   * 'inherit' copies it to our stderr, a function receives each chunk as text.
   */
  stderr?: 'pipe' | 'inherit' | ((text: string) => void);
  /** Milliseconds to wait after closing stdin, then after SIGTERM, before the next step (2000 each). */
  shutdownGrace?: number;
}

const STDERR_TAIL_BYTES = 4096;
/** After the process exits, how long its stdout and stderr may still deliver what it wrote. */
const EXIT_DRAIN_MS = 100;

export class ChildProcessTransport implements Transport {
  private child: ChildProcess | undefined;
  private stream: StreamTransport | undefined;
  private handlers: TransportHandlers | undefined;
  private stderrTail = '';
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private closeReason: CloseReason | undefined;
  private closing = false;
  private readonly closeWaiters: Array<() => void> = [];
  private untrack: (() => void) | undefined;
  private readonly earlySends: JsonRpcPayload[] = [];

  constructor(private readonly options: ChildProcessTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last few KiB the server wrote to stderr. */
  get stderr(): string {
    return this.stderrTail;
  }

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    const { command, args = [], cwd } = this.options;
    const env = { ...(this.options.inheritEnv ? process.env : defaultEnvironment()), ...this.options.env };
    let child: ChildProcess;
    try {
      child = childProcess().spawn(command, args, {
        cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: spawnAsGroupLeader,
        windowsHide: true,
      });
    } catch (error) {
      queueMicrotask(() => this.finish(this.spawnFailure(error as Error)));
      return;
    }
    this.child = child;
    child.on('error', (error) => {
      // 'error' without a pid means the command could not be started at all.
      if (child.pid === undefined) this.finish(this.spawnFailure(error));
    });
    if (child.pid !== undefined) this.untrack = trackTree(child.pid);
    child.stderr!.on('data', (chunk: Buffer) => this.onStderr(chunk));
    child.stdin!.on('error', () => {
      // EPIPE after the server died; its exit is reported through 'exit'.
    });
    const stream = new StreamTransport(child.stdout!, child.stdin!, this.options);
    this.stream = stream;
    stream.start({
      message: (payload) => handlers.message(payload),
      frameError: (error) => handlers.frameError(error),
      inputEnded: () => {
        // stdout closing usually means the server is exiting; wait for its exit status to explain it.
      },
      closed: () => {},
    });
    child.on('exit', (code, signal) => {
      this.exited = { code, signal };
      // Let stdout deliver what the server wrote just before exiting, then report the exit. A grandchild
      // that escaped the group may hold the pipes open for ever: they are destroyed after the grace.
      // The tree stays tracked until finish() has killed what is left of the group.
      releasePipesAfterExit(child, EXIT_DRAIN_MS, () => this.finish(this.exitReason()));
    });
    for (const payload of this.earlySends.splice(0)) stream.send(payload);
  }

  send(payload: JsonRpcPayload, options?: SendOptions): void {
    // After stdin was ended by close(), a write could only fail.
    if (this.closeReason || this.child?.stdin?.writableEnded) return;
    if (this.stream) this.stream.send(payload, options);
    else this.earlySends.push(payload);
  }

  flush(): Promise<void> {
    return this.stream?.flush() ?? Promise.resolve();
  }

  /**
   * Ends the server: close stdin, wait; SIGTERM to its tree, wait; SIGKILL. Resolves once it is gone.
   * A second call waits for the first: run twice, the second shutdown could wait on a flush that no longer
   * could end (stdin gone) with no timer to keep the process alive, and never resolve.
   */
  close(): Promise<void> {
    this.shutdown ??= this.shutDown();
    return this.shutdown;
  }

  private shutdown: Promise<void> | undefined;

  private async shutDown(): Promise<void> {
    if (this.closeReason) return;
    const child = this.child;
    if (!child || child.pid === undefined || this.exited) {
      this.finish({ message: 'closed' });
      return;
    }
    this.closing = true;
    const grace = this.options.shutdownGrace ?? 2000;
    // A server that never reads its stdin never lets a flush finish: closing waited on it for ever. The
    // wait also ends when the server does.
    await Promise.race([this.stream?.flush(), this.waitForExit(grace)]);
    child.stdin!.end();
    if (await this.waitForExit(grace)) return;
    killTree(child.pid, 'SIGTERM');
    if (await this.waitForExit(grace)) return;
    killTree(child.pid, 'SIGKILL');
    await this.waitForExit(grace);
  }

  private waitForExit(ms: number): Promise<boolean> {
    if (this.closeReason) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.closeWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private onStderr(chunk: Buffer): void {
    const text = chunk.toString('utf8');
    const tail = this.stderrTail + text;
    this.stderrTail = tail.length > STDERR_TAIL_BYTES ? tail.slice(tail.length - STDERR_TAIL_BYTES) : tail;
    const mode = this.options.stderr ?? 'pipe';
    if (mode === 'inherit') process.stderr.write(chunk);
    else if (typeof mode === 'function') mode(text);
  }

  private spawnFailure(error: Error): CloseReason {
    const code = (error as NodeJS.ErrnoException).code;
    const hint =
      code === 'ENOENT'
        ? ': no such command (check the spelling, or give the full path)'
        : code === 'EACCES'
          ? ': permission denied (is the file executable?)'
          : `: ${error.message}`;
    return { message: `could not start "${this.options.command}"${hint}`, cause: error };
  }

  private exitReason(): CloseReason {
    const { code, signal } = this.exited ?? { code: null, signal: null };
    const what = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    return {
      message: this.closing ? `server ${what} after shutdown` : `server ${what}`,
      exitCode: code,
      signal,
      stderrTail: lastLines(this.stderrTail, 20),
    };
  }

  private finish(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    // Whatever the server started in its group must not outlive it.
    if (this.child?.pid !== undefined) killTree(this.child.pid, 'SIGKILL');
    this.untrack?.();
    this.child?.stdout?.removeAllListeners('data');
    // Nothing more is read or written: open pipes would only keep the event loop alive.
    for (const stream of [this.child?.stdin, this.child?.stdout, this.child?.stderr]) stream?.destroy();
    this.handlers?.closed(reason);
    for (const resolve of this.closeWaiters.splice(0)) resolve();
  }
}

function lastLines(text: string, count: number): string {
  const lines = text.trimEnd().split('\n');
  return lines.slice(-count).join('\n');
}
