// What is left of a child's pipes once the child itself has exited.
//
// A pipe ends when every process holding its write end has closed it, not when the child exits. A
// grandchild that escaped into a session of its own (setsid, a daemonising server) is in no process group
// we signal and may hold the child's stdout and stderr for as long as it runs. Waiting for them to end
// kept a command (and its event loop) alive after its server had exited. So after the exit we wait for
// the pipes only a short grace, enough for what the child wrote just before exiting, then destroy them.

import type { ChildProcess } from 'node:child_process';

/**
 * Once `child` has exited, waits at most `graceMs` for its stdout and stderr to end, then destroys what is
 * still open (stdin too) and calls `done`. Destroying the pipes is also what lets the child's 'close'
 * event fire, with the child's own exit code.
 */
export function releasePipesAfterExit(
  child: ChildProcess,
  graceMs: number,
  done: () => void = () => {},
): void {
  const outputs = [child.stdout, child.stderr].filter(
    (stream): stream is NonNullable<typeof stream> =>
      stream !== null && !stream.readableEnded && !stream.destroyed,
  );
  let settled = false;
  const finish = () => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    done();
  };
  const timer = setTimeout(finish, graceMs);
  let open = outputs.length;
  if (open === 0) {
    finish();
    return;
  }
  for (const stream of outputs) {
    // 'end' when its data was read to the end, 'close' when it was destroyed first: whichever comes.
    let ended = false;
    const onEnd = () => {
      if (ended) return;
      ended = true;
      if (--open === 0) finish();
    };
    stream.once('end', onEnd);
    stream.once('close', onEnd);
  }
}
