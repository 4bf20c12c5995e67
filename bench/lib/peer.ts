// A peer script (bench/peers/*.mjs) in its own node process, driven command by command over an IPC
// channel. Each subject measured in its own process keeps its JIT state, heap and peak RSS its own, and
// commands let several peers (or several servers of one client peer: mcp.ts withSharedClient) take turns
// run by run, so that a slow patch of the machine hits all alike.

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PEERS_DIR = fileURLToPath(new URL('../peers/', import.meta.url));

interface Reply {
  ok: boolean;
  error?: string;
  [key: string]: unknown;
}

export interface PeerOptions {
  /** JSON passed as the script's first argument. */
  config?: unknown;
  /** Fail a command that takes longer than this (120 000 ms). */
  timeoutMs?: number;
}

export type Command = { op: string; [key: string]: unknown };

/** What runs commands: a peer, or one of the servers a shared client peer drives (mcp.ts). */
export interface Commander {
  command<T>(command: Command): Promise<T>;
}

export class Peer implements Commander {
  private readonly waiters: Array<{ resolve(reply: Reply): void; reject(error: Error): void }> = [];
  private stderrTail = '';
  private exited: string | undefined;
  private readonly exit: Promise<void>;
  /** The command before the next one: replies are matched in order, and a peer's runs must not overlap. */
  private turn: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly script: string,
    private readonly child: ChildProcess,
    private readonly timeoutMs: number,
  ) {
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-8192);
    });
    child.stdout!.setEncoding('utf8').on('data', (text: string) => process.stderr.write(text));
    child.on('message', (reply: Reply) => this.waiters.shift()?.resolve(reply));
    this.exit = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        this.exited = signal ?? `code ${code}`;
        for (const waiter of this.waiters.splice(0)) waiter.reject(this.failure('exited'));
        resolve();
      });
    });
  }

  /** Starts `node --expose-gc bench/peers/SCRIPT CONFIG` and waits until it says it is ready. */
  static async start(script: string, options: PeerOptions = {}): Promise<Peer> {
    const args = ['--expose-gc', `${PEERS_DIR}${script}`, JSON.stringify(options.config ?? {})];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const peer = new Peer(script, child, options.timeoutMs ?? 120_000);
    await peer.reply();
    return peer;
  }

  /**
   * Sends one command and resolves with the peer's answer. Commands run one at a time: one given while
   * another runs (two servers of a shared client, say: mcp.ts) is sent once that one is answered.
   */
  command<T>(command: Command): Promise<T> {
    const next = this.turn.catch(() => undefined).then(() => this.send<T>(command));
    this.turn = next;
    return next;
  }

  private async send<T>(command: Command): Promise<T> {
    if (this.exited) throw this.failure('had exited');
    this.child.send(command);
    return (await this.reply()) as T;
  }

  /** Asks the peer to stop its servers and exit, and waits for it; kills it if it does not. */
  async close(): Promise<void> {
    if (!this.exited) {
      try {
        await this.command({ op: 'close' });
      } catch {
        // Killed below.
      }
    }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exit;
    clearTimeout(timer);
  }

  /** Ends the peer at once (after a failure elsewhere). */
  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  private async reply(): Promise<Reply> {
    let timer: NodeJS.Timeout | undefined;
    const reply = await new Promise<Reply>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(this.failure(`took longer than ${this.timeoutMs} ms`));
      }, this.timeoutMs);
    }).finally(() => clearTimeout(timer));
    if (!reply.ok) throw new Error(`${this.script}: ${reply.error}`);
    return reply;
  }

  private failure(what: string): Error {
    const how = this.exited ? ` (${this.exited})` : '';
    return new Error(`${this.script} ${what}${how}; its stderr ended with:\n${this.stderrTail}`);
  }
}

/** Starts one peer per spec, runs `body` with them, and closes them; on failure, kills them. */
export async function withPeers<T>(
  specs: ReadonlyArray<{ script: string; config: Record<string, unknown> }>,
  body: (peers: Peer[]) => Promise<T>,
): Promise<T> {
  const peers: Peer[] = [];
  try {
    for (const spec of specs) peers.push(await Peer.start(spec.script, { config: spec.config }));
    const result = await body(peers);
    for (const peer of peers) await peer.close();
    return result;
  } finally {
    for (const peer of peers) peer.kill();
  }
}
