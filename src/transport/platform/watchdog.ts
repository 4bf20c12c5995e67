// A watchdog that ends the process groups this process started when this process dies, however it dies.
//
// Signal handlers and the 'exit' hook cover every ending but one: SIGKILL, which no process can catch.
// Its servers then only see their stdin end, and one that ignores that (and SIGTERM) lived on, reparented,
// with everything it started. Linux's prctl(PR_SET_PDEATHSIG) or a subreaper would settle it, but Node
// cannot call them without a native addon. So a second process keeps watch: a small /bin/sh script
// (about a millisecond to start, where another node would take some forty), started at the first spawn.
// It reads "+ PGID" and "- PGID" lines from a pipe whose only writer is this process, and the kernel closes
// that pipe whatever ends this process. At the end of its input it sends SIGTERM to every group still
// registered, gives them a short grace, then SIGKILL, and exits: it never outlives its job.
//
// It is started detached, so in a session and process group of its own: a Ctrl-C, a hangup or a
// `kill -- -PGID` aimed at this process's group, which it would have shared, does not end it before it
// did its work, and it ignores the terminal's signals besides. It is unreferenced, with its pipe, so it
// never keeps this process's event loop alive. Its stdout and stderr are /dev/null: it never holds a pipe
// that someone waits on to learn that this process ended.
//
// POSIX only. Windows has neither process groups nor a cheap shell; there the 'exit' hook's taskkill /T
// is all there is, and a killed mcpwire leaves its servers to end on their own when their stdin closes.

import type { ChildProcess } from 'node:child_process';
import { childProcess } from './builtins.js';

/** Tenths of a second the groups get between SIGTERM and SIGKILL once this process is gone. */
const GRACE_TENTHS = 10;

// Groups are kept as " 12 34 " so that one is removed by parameter expansion, without a subshell. A
// group whose members have all exited makes `kill -s 0` fail, so the grace ends as soon as all are gone.
// Always `kill -s SIG -- -PGID`: dash takes the "--" in `kill -0 -- -PGID` for a process id.
const SCRIPT = `
trap '' INT HUP QUIT TSTP TTIN TTOU
groups=' '
while read -r op pgid; do
  case $pgid in ''|*[!0-9]*) continue ;; esac
  case $op in
    +) groups="$groups$pgid " ;;
    -) case $groups in *" $pgid "*) groups="\${groups%% $pgid *} \${groups#* $pgid }" ;; esac ;;
  esac
done
[ -z "\${groups# }" ] && exit 0
for g in $groups; do kill -s TERM -- -$g 2>/dev/null; done
i=0
while [ $i -lt ${GRACE_TENTHS} ]; do
  alive=
  for g in $groups; do kill -s 0 -- -$g 2>/dev/null && alive="$alive $g"; done
  [ -z "$alive" ] && exit 0
  groups=$alive
  sleep 0.1
  i=$((i + 1))
done
for g in $groups; do kill -s KILL -- -$g 2>/dev/null; done
exit 0
`;

const watched = new Set<number>();
let watchdog: ChildProcess | undefined;
/** Set once /bin/sh could not be started at all: trying again at every spawn would not help. */
let unavailable = false;

/** Asks the watchdog to end the process group `pgid` if this process dies before it says otherwise. */
export function watchGroup(pgid: number): void {
  if (watched.has(pgid)) return;
  watched.add(pgid);
  // A watchdog that starts now is told every watched group, this one included.
  if (watchdog) tell(watchdog, `+ ${pgid}`);
  else startWatchdog();
}

/** The group ended (or was ended): the watchdog forgets it, so that it never signals a reused id. */
export function unwatchGroup(pgid: number): void {
  if (!watched.delete(pgid)) return;
  if (watchdog) tell(watchdog, `- ${pgid}`);
}

// If someone kills the watchdog itself, the next spawn starts another one and tells it every group.
function startWatchdog(): void {
  if (unavailable) return;
  let dog: ChildProcess;
  try {
    dog = childProcess().spawn('/bin/sh', ['-c', SCRIPT], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
  } catch {
    unavailable = true;
    return;
  }
  watchdog = dog;
  dog.unref();
  // The pipe is a socket handle of its own, which would keep the event loop alive as much as the child.
  (dog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  dog.stdin?.on('error', () => {
    // EPIPE: the watchdog is gone; its 'exit' is handled below.
  });
  dog.on('error', () => {
    // No pid means /bin/sh could not be started at all.
    if (dog.pid === undefined) unavailable = true;
    if (watchdog === dog) watchdog = undefined;
  });
  dog.on('exit', () => {
    if (watchdog === dog) watchdog = undefined;
  });
  for (const pgid of watched) tell(dog, `+ ${pgid}`);
}

function tell(dog: ChildProcess, line: string): void {
  if (dog.stdin && !dog.stdin.destroyed) dog.stdin.write(`${line}\n`);
}
