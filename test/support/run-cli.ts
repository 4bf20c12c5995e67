// The mcpwire binary run to its end, as a person or a script runs it: exit code, stdout and stderr.

import { spawn } from 'node:child_process';
import { BIN, REPO_ROOT } from './peers.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** Written to its standard input, which then ends (none by default). */
  input?: string;
  /** Another copy of bin/mcpwire.js. */
  bin?: string;
  /** Its working folder (the repository by default). */
  cwd?: string;
}

/**
 * Runs `mcpwire ARGS`. The timeout is a failure limit, not a wait: a command that hangs is ended, so that
 * the test fails instead of the run hanging.
 */
export function runCli(
  args: string[],
  timeoutMs = 100_000,
  env?: NodeJS.ProcessEnv,
  options: CliRunOptions = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      timeout: timeoutMs,
      env: env ?? process.env,
    });
    // A command that exits before reading its input closes the pipe: that is its answer, not an error here.
    child.stdin?.on('error', () => {});
    if (options.input !== undefined) child.stdin!.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs `node ARGV` with a reader of its stdout that is gone before the first byte, as `| head -0` would
 * be: how a command stops when its output is no longer wanted.
 */
export function runWithStdoutClosed(argv: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.destroy();
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}
