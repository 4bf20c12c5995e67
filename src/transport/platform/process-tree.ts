// Ending a whole process tree, which differs by operating system. On POSIX a server is started as the
// leader of its own process group, so a signal to the group reaches everything it started (an `npx` or a
// shell in front of the real server included). Windows has no groups; taskkill /T walks the tree.

import { spawnSync } from 'node:child_process';

export const isWindows = process.platform === 'win32';

/** Whether children should be spawned detached, i.e. as leaders of their own process group. */
export const spawnAsGroupLeader = !isWindows;

export function killTree(pid: number, signal: NodeJS.Signals): void {
  if (isWindows) {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

const live = new Set<number>();
let exitHookInstalled = false;

/**
 * Remembers a child's tree so that it is killed if this process exits first, whatever the way it exits
 * (a signal handler that calls process.exit included).
 */
export function trackTree(pid: number): () => void {
  live.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const child of live) killTree(child, 'SIGKILL');
    });
  }
  return () => live.delete(pid);
}
