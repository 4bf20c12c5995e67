// What `mcpwire call --task` shows of a task on stderr: its id once, each change of status on a line of
// its own, and its progress as the one progress bar of the command line (a line per update off a TTY).

import { TASK_PROGRESS_META, type Task } from '../protocol/tasks/task.js';
import { ProgressLine } from './shell/progress.js';

export class TaskLife {
  private readonly bar: ProgressLine;
  private taskId: string | undefined;
  private status: string | undefined;
  private progressSeen = '';

  constructor(private readonly stream: NodeJS.WriteStream) {
    this.bar = new ProgressLine(stream);
  }

  /** Whether the call became a task at all (the server may answer at once). */
  get started(): boolean {
    return this.taskId !== undefined;
  }

  update(task: Task): void {
    if (this.taskId === undefined) {
      this.taskId = task.taskId;
      this.line(`task ${task.taskId} started`);
    }
    if (task.status !== this.status) {
      this.status = task.status;
      const message = task.statusMessage ? `: ${task.statusMessage}` : '';
      this.line(`task ${task.status.replace('_', ' ')}${message}`);
    }
    const progress = task._meta?.[TASK_PROGRESS_META] as { progress?: unknown; total?: unknown } | undefined;
    if (typeof progress?.progress === 'number') {
      const shown = {
        progress: progress.progress,
        total: typeof progress.total === 'number' ? progress.total : undefined,
        message: task.statusMessage,
      };
      const key = JSON.stringify(shown);
      if (key !== this.progressSeen) {
        this.progressSeen = key;
        this.bar.update(shown);
      }
    }
  }

  clear(): void {
    this.bar.clear();
  }

  private line(text: string): void {
    this.bar.clear();
    this.stream.write(`${text}\n`);
  }
}
