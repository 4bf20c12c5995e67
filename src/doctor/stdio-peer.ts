// A stdio server under examination: spawned fresh for each check, driven with raw bytes so that a check
// can send exactly what it wants (broken JSON, split writes, batches), with every line it writes on
// stdout kept, parsed or not.

import { type ChildProcess, spawn } from 'node:child_process';
import { FrameDecoder } from '../transport/framing/decoder.js';
import { killTree, spawnAsGroupLeader, trackTree } from '../transport/platform/process-tree.js';
import { Peer } from './peer.js';

export interface PeerCommand {
  command: string;
  args: string[];
  cwd?: string;
}

export class StdioPeer extends Peer {
  private readonly child: ChildProcess;
  private stderrText = '';
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exitWaiters: Array<() => void> = [];
  private readonly untrack: () => void;

  constructor(command: PeerCommand, timeoutMs: number) {
    super(timeoutMs);
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
        this.received({ text, value, json });
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

  override get stderr(): string {
    return this.stderrText;
  }

  override get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exitInfo;
  }

  write(bytes: string | Buffer): void {
    if (!this.exitInfo) this.child.stdin!.write(bytes);
  }

  endInput(): void {
    this.child.stdin!.end();
  }

  signal(signal: NodeJS.Signals): void {
    if (this.child.pid !== undefined) this.child.kill(signal);
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

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitInfo) return;
    this.exitInfo = { code, signal };
    for (const resolve of this.exitWaiters.splice(0)) resolve();
    this.wake();
  }
}
