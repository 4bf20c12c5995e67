// Where tasks are kept: a small interface, so that a store outside the process (Redis, a database) can
// take the place of the one in memory. Records are JSON; a store hands out copies, never its own objects.

import type { TaskRecord } from './task.js';

export interface TaskStore {
  /** Stores a new task. Resolves once a get of it would find it (the extension requires it). */
  create(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Replaces a task's record. */
  put(record: TaskRecord): Promise<void>;
  delete(taskId: string): Promise<void>;
}

/**
 * The default store: the records of this process, as JSON text (what a store elsewhere would keep, and a
 * guarantee that nothing unserializable slips in). Lost when the process ends.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly records = new Map<string, string>();

  async create(record: TaskRecord): Promise<void> {
    if (this.records.has(record.taskId)) throw new Error(`task "${record.taskId}" exists already`);
    this.records.set(record.taskId, JSON.stringify(record));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = this.records.get(taskId);
    return text === undefined ? undefined : (JSON.parse(text) as TaskRecord);
  }

  async put(record: TaskRecord): Promise<void> {
    this.records.set(record.taskId, JSON.stringify(record));
  }

  async delete(taskId: string): Promise<void> {
    this.records.delete(taskId);
  }

  /** How many tasks it holds. */
  get size(): number {
    return this.records.size;
  }
}
