// Small helpers for command-line arguments, on top of node:util's parseArgs.

import { UsageError } from './usage.js';

/** Parses a size such as 1048576, 512KiB, 100MiB, 1GiB (also KB/MB/GB, as powers of 1024). */
export function parseSize(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]i?b?|b)?$/i.exec(text.trim());
  if (!match) {
    throw new UsageError(`${option} takes a size such as 268435456, 512KiB or 256MiB; got "${text}"`);
  }
  const unit = (match[2] ?? 'b').toLowerCase()[0];
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Math.floor(Number(match[1]) * factor);
}

/** Splits argv at the first "--": options before, a command and its arguments after. */
export function splitAtDoubleDash(argv: string[]): { before: string[]; command: string[] } {
  const index = argv.indexOf('--');
  return index === -1
    ? { before: argv, command: [] }
    : { before: argv.slice(0, index), command: argv.slice(index + 1) };
}
