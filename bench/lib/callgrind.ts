// Counting the instructions a server process runs, with valgrind's callgrind: a count that what else the
// host runs barely moves (the same server, build and workload counted within 3.5% of itself, most often 1%),
// where the time and CPU time of bench/suites/http-server.ts move by 10 to 25% a round on a busy host. It
// counts user-space instructions only: what the kernel does for a call (the socket writes) is not in it.
//
// The server runs under callgrind for its whole life; its counters are zeroed after the warm-up and
// dumped after the counted calls (callgrind_control -z and -d), so the count covers those calls only.
// Each thread is dumped on its own (--separate-threads): thread 1 is the event loop, which runs every
// call's JavaScript and Node's work for it; the others are V8's helpers (the garbage collector's parallel
// and concurrent work, and the optimizing compiler).

import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Whether valgrind is installed (callgrind_control comes with it). */
export function hasValgrind(): boolean {
  return (
    spawnSync('sh', ['-c', 'command -v valgrind && command -v callgrind_control'], { stdio: 'ignore' })
      .status === 0
  );
}

export const VALGRIND_MISSING = 'valgrind is not installed: apt-get install -y valgrind';

/**
 * `command` run under callgrind, its dumps written to `outFile` and numbered files beside it.
 * --smc-check=all-non-file: V8 writes and rewrites machine code, which valgrind must see as it changes.
 */
export function underCallgrind(outFile: string, command: readonly string[]): string[] {
  return [
    'valgrind',
    '--tool=callgrind',
    '--smc-check=all-non-file',
    '--separate-threads=yes',
    `--callgrind-out-file=${outFile}`,
    ...command,
  ];
}

/**
 * Zeroes the counters of the process under callgrind (callgrind_control waits until it has). Its pid is
 * the one the bench's client reports for the server it started (`stats`): valgrind runs the program in
 * its own process.
 */
export async function zeroCounters(pid: number): Promise<void> {
  await run('callgrind_control', ['-z', String(pid)]);
}

/** Dumps the counters since the last zeroing; the dump's number is the count of dumps so far. */
export async function dumpCounters(pid: number): Promise<void> {
  await run('callgrind_control', ['-d', String(pid)]);
}

/** Instructions counted in one dump: on the event loop's thread, and on all threads. */
export interface Counted {
  main: number;
  all: number;
}

/**
 * The instructions of dump number `part` of `outFile` (files OUT.PART-TT, one per thread that ran; a
 * thread that ran nothing since the zeroing has none).
 */
export function readDump(outFile: string, part: number): Counted {
  const prefix = `${path.basename(outFile)}.${part}-`;
  const files = readdirSync(path.dirname(outFile)).filter((name) => name.startsWith(prefix));
  if (files.length === 0) throw new Error(`callgrind wrote no dump ${part} beside ${outFile}`);
  let main = 0;
  let all = 0;
  for (const name of files) {
    const count = dumpSummary(readFileSync(path.join(path.dirname(outFile), name), 'utf8'));
    all += count;
    if (Number(name.slice(prefix.length)) === 1) main = count;
  }
  return { main, all };
}

/** The `summary:` line of a callgrind dump: the events it counted (instructions, the only event here). */
function dumpSummary(text: string): number {
  const match = /^summary: (\d+)/m.exec(text);
  if (!match) throw new Error('a callgrind dump without a summary line');
  return Number(match[1]);
}
