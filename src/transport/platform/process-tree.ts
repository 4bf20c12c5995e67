// Ending a whole process tree, which differs by operating system. On POSIX a server is started as the
// leader of its own process group, so a signal to the group reaches everything it started (an `npx` or a
// shell in front of the real server included). Windows has no groups; taskkill /T walks the tree.

import { childProcess } from './builtins.js';
import { unwatchGroup, watchGroup } from './watchdog.js';

export const isWindows = process.platform === 'win32';

/** Whether children should be spawned detached, i.e. as leaders of their own process group. */
export const spawnAsGroupLeader = !isWindows;

export function killTree(pid: number, signal: NodeJS.Signals): void {
  if (isWindows) {
    childProcess().spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], {
      stdio: 'ignore',
      windowsHide: true,
    });
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
 * Remembers a child's tree so that it is killed if this process exits first, whatever the way it exits:
 * the 'exit' hook covers process.exit and a signal handler that calls it; on POSIX the watchdog covers
 * what no hook sees, SIGKILL above all. The function returned forgets the tree once it has ended.
 */
export function trackTree(pid: number): () => void {
  live.add(pid);
  // The child was spawned as a group leader, so its pid is its group's id.
  if (spawnAsGroupLeader) watchGroup(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const child of live) killTree(child, 'SIGKILL');
    });
  }
  return () => {
    live.delete(pid);
    if (spawnAsGroupLeader) unwatchGroup(pid);
  };
}
