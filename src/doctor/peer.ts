// A server under examination: spawned fresh for each check, driven with raw bytes so that a check can
// send exactly what it wants (broken JSON, split writes, batches), with every line it writes on stdout
// kept, parsed or not.

import { type ChildProcess, spawn } from 'node:child_process';
import { classify, type JsonRpcId } from '../jsonrpc/messages.js';
import { FrameDecoder } from '../transport/framing/decoder.js';
import { killTree, spawnAsGroupLeader, trackTree } from '../transport/platform/process-tree.js';

export interface PeerCommand {
  command: string;
  args: string[];
  cwd?: string;
}

/** One line the server wrote on stdout. */
export interface OutputFrame {
  text: string;
  /** The parsed value, or undefined when the line was not JSON. */
  value: unknown;
  json: boolean;
}

export class PeerTimeout extends Error {
  override readonly name = 'PeerTimeout';
}

export class Peer {
  readonly frames: OutputFrame[] = [];
  private readonly child: ChildProcess;
  private readonly waiters: Array<() => void> = [];
  private stderrText = '';
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exitWaiters: Array<() => void> = [];
  private readonly untrack: () => void;
  private nextId = 1000;

  constructor(
    command: PeerCommand,
    readonly timeoutMs: number,
  ) {
    this.child = spawn(command.command, command.args, {
      cwd: command.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: spawnAsGroupLeader,
    });
    this.untrack = this.child.pid === undefined ? () => {} : trackTree(this.child.pid);
    const decoder = new FrameDecoder({
      frame: (text) => {
        let value: unknown;
        let json = true;
        try {
          value = JSON.parse(text);
        } catch {
          json = false;
        }
        this.frames.push({ text, value, json });
        this.wake();
      },
      oversize: () => {},
      framingError: (message) =>
        this.frames.push({ text: `<framing error: ${message}>`, value: undefined, json: false }),
    });
    this.child.stdout!.on('data', (chunk: Buffer) => decoder.push(chunk));
    this.child.stdout!.on('end', () => decoder.end());
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrText = (this.stderrText + chunk.toString('utf8')).slice(-4000);
    });
    this.child.stdin!.on('error', () => {});
    this.child.on('error', (error) => {
      this.stderrText += `\n${error.message}`;
      this.exited(null, null);
    });
    this.child.on('exit', (code, signal) => this.exited(code, signal));
  }

  get stderr(): string {
    return this.stderrText;
  }

  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exitInfo;
  }

  /** A fresh id no check uses on purpose. */
  id(): number {
    return this.nextId++;
  }

  write(bytes: string | Buffer): void {
    if (!this.exitInfo) this.child.stdin!.write(bytes);
  }

  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  endInput(): void {
    this.child.stdin!.end();
  }

  signal(signal: NodeJS.Signals): void {
    if (this.child.pid !== undefined) this.child.kill(signal);
  }

  /** Every parsed message the server sent that answers `id` (by exact JSON value). */
  responsesTo(id: JsonRpcId | null): unknown[] {
    const found: unknown[] = [];
    for (const frame of this.frames) {
      const items = Array.isArray(frame.value) ? frame.value : [frame.value];
      for (const item of items) {
        const c = classify(item);
        if (c.kind === 'response' && c.message.id === id) found.push(item);
      }
    }
    return found;
  }

  /** Waits for a frame matching `predicate`; throws PeerTimeout (or when the server exits first). */
  async waitFor<T>(predicate: () => T | undefined, what: string, timeoutMs = this.timeoutMs): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    const seen = this.frames.length;
    for (;;) {
      const found = predicate();
      if (found !== undefined) return found;
      if (this.exitInfo)
        throw new PeerTimeout(`the server exited before ${what} (${describeExit(this.exitInfo)})`);
      const left = deadline - Date.now();
      if (left <= 0) throw new PeerTimeout(`waited ${timeoutMs} ms for ${what}; ${this.cameSince(seen)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
        this.exitWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the response to `id`. */
  response(
    id: JsonRpcId | null,
    what = `a response to id ${JSON.stringify(id)}`,
  ): Promise<Record<string, unknown>> {
    return this.waitFor(() => this.responsesTo(id)[0] as Record<string, unknown> | undefined, what);
  }

  /** Sends a request and waits for its response. */
  async request(
    method: string,
    params?: unknown,
    id: JsonRpcId = this.id(),
  ): Promise<Record<string, unknown>> {
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.response(id, `a response to "${method}"`);
  }

  /** The handshake; returns the initialize result (or throws with what went wrong). */
  async initialize(
    protocolVersion = '2025-11-25',
    capabilities: object = {},
  ): Promise<Record<string, unknown>> {
    const response = await this.request('initialize', {
      protocolVersion,
      capabilities,
      clientInfo: { name: 'mcpwire-doctor', version: '1.0.0' },
    });
    if (!('result' in response)) throw new Error(`initialize failed: ${JSON.stringify(response.error)}`);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response.result as Record<string, unknown>;
  }

  /** Waits for the process to exit; false if it did not within `ms`. */
  waitForExit(ms: number): Promise<boolean> {
    if (this.exitInfo) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.exitWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Ends the server and its tree, politely first. */
  async dispose(): Promise<void> {
    if (!this.exitInfo) {
      this.endInput();
      if (!(await this.waitForExit(1000)) && this.child.pid !== undefined) {
        killTree(this.child.pid, 'SIGKILL');
        await this.waitForExit(2000);
      }
    }
    if (this.child.pid !== undefined) killTree(this.child.pid, 'SIGKILL');
    this.untrack();
  }

  /** What the server wrote from frame `index` on, for a timeout message: "nothing came" only if nothing did. */
  private cameSince(index: number): string {
    const frames = this.frames.slice(index);
    if (frames.length === 0) return 'nothing came';
    const shown = frames
      .slice(0, 3)
      .map(
        (f) => `${f.json ? '' : '(not JSON) '}${f.text.length > 120 ? `${f.text.slice(0, 120)}…` : f.text}`,
      );
    return `what came instead (${frames.length} line(s)): ${shown.join(' | ')}${frames.length > 3 ? ' | …' : ''}`;
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitInfo) return;
    this.exitInfo = { code, signal };
    for (const resolve of this.exitWaiters.splice(0)) resolve();
    this.wake();
  }
}

export function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}
