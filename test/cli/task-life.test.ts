// What `mcpwire call --task` shows of a task (src/cli/task-life.ts): its id once, a line for each change of
// status, and its progress as the command line's one progress bar, redrawn in place on a terminal (cleared
// before the next line) and a plain line per change elsewhere; a poll that brings nothing new prints nothing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TaskLife } from '../../src/cli/task-life.js';
import { TASK_PROGRESS_META, type Task } from '../../src/protocol/tasks/task.js';

const CLEAR = '\r\u001b[2K';

function stream(isTTY: boolean): { writes: string[]; stream: NodeJS.WriteStream } {
  const writes: string[] = [];
  const fake = {
    isTTY,
    write(text: string) {
      writes.push(text);
      return true;
    },
  };
  return { writes, stream: fake as unknown as NodeJS.WriteStream };
}

function task(status: Task['status'], progress?: number, statusMessage?: string): Task {
  return {
    taskId: 'run.42',
    status,
    ...(statusMessage !== undefined && { statusMessage }),
    ...(progress !== undefined && { _meta: { [TASK_PROGRESS_META]: { progress, total: 4 } } }),
  } as Task;
}

describe('TaskLife (mcpwire call --task on stderr)', () => {
  it('on a terminal: the id once, each status on a line, the progress as a bar redrawn in place', () => {
    const { writes, stream: tty } = stream(true);
    const life = new TaskLife(tty);
    assert.equal(life.started, false);
    life.update(task('working', 1, 'step 1 of 4'));
    life.update(task('working', 1, 'step 1 of 4'));
    life.update(task('working', 2, 'step 2 of 4'));
    life.update(task('input_required', 2, 'Go on?'));
    life.update(task('completed', 4, 'step 4 of 4'));
    life.clear();
    assert.equal(life.started, true);
    assert.deepEqual(writes, [
      'task run.42 started\n',
      'task working: step 1 of 4\n',
      `${CLEAR}[######                  ] 1/4 (25%) step 1 of 4`,
      // The same poll again draws nothing; the next step redraws the bar where it is.
      `${CLEAR}[############            ] 2/4 (50%) step 2 of 4`,
      // A new status clears the bar before its line, and the bar comes back under it.
      CLEAR,
      'task input required: Go on?\n',
      `${CLEAR}[############            ] 2/4 (50%) Go on?`,
      CLEAR,
      'task completed: step 4 of 4\n',
      `${CLEAR}[########################] 4/4 (100%) step 4 of 4`,
      CLEAR,
    ]);
  });

  it('off a terminal: a plain line per change, no bar and no control characters', () => {
    const { writes, stream: pipe } = stream(false);
    const life = new TaskLife(pipe);
    life.update(task('working', 1, 'step 1 of 4'));
    life.update(task('working', 1, 'step 1 of 4'));
    life.update(task('working'));
    life.update(task('cancelled', undefined, 'the command line got SIGINT'));
    life.clear();
    assert.deepEqual(writes, [
      'task run.42 started\n',
      'task working: step 1 of 4\n',
      '1/4 (25%) step 1 of 4\n',
      'task cancelled: the command line got SIGINT\n',
    ]);
  });
});
