// A progress bar on one terminal line, redrawn in place; a plain line per update when not on a terminal.

import type { Progress } from '../../jsonrpc/connection.js';

const WIDTH = 24;

export function renderProgress(progress: Progress): string {
  const { progress: done, total, message } = progress;
  if (total && total > 0) {
    const ratio = Math.max(0, Math.min(1, done / total));
    const filled = Math.round(ratio * WIDTH);
    return `[${'#'.repeat(filled)}${' '.repeat(WIDTH - filled)}] ${Math.round(ratio * 100)}%${message ? ` ${message}` : ''}`;
  }
  return `[${done}]${message ? ` ${message}` : ''}`;
}

export class ProgressLine {
  private active = false;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  update(progress: Progress): void {
    const text = renderProgress(progress);
    if (this.stream.isTTY) {
      this.stream.write(`\r\u001b[2K${text}`);
      this.active = true;
    } else {
      this.stream.write(`${text}\n`);
    }
  }

  /** Clears the bar before anything else is printed. */
  clear(): void {
    if (this.active) this.stream.write('\r\u001b[2K');
    this.active = false;
  }
}
