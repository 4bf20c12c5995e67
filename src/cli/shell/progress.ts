// A progress bar on one terminal line, redrawn in place; a plain line per update when not on a terminal.

import type { Progress } from '../../jsonrpc/connection.js';

const WIDTH = 24;

/**
 * The one progress format of the command line: "2/4 (50%) rows so far", or "2 rows so far" without a
 * total; on a terminal with a bar in front. `call` printed "progress 2/4 ..." and the shell a bar alone.
 */
export function renderProgress(progress: Progress, bar = true): string {
  const { progress: done, total, message } = progress;
  const said = message ? ` ${message}` : '';
  if (total && total > 0) {
    const ratio = Math.max(0, Math.min(1, done / total));
    const filled = Math.round(ratio * WIDTH);
    const counts = `${done}/${total} (${Math.round(ratio * 100)}%)${said}`;
    return bar ? `[${'#'.repeat(filled)}${' '.repeat(WIDTH - filled)}] ${counts}` : counts;
  }
  return `${done}${said}`;
}

export class ProgressLine {
  private active = false;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  update(progress: Progress): void {
    const text = renderProgress(progress, this.stream.isTTY === true);
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
