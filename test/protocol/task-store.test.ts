// The TaskStore interface is all a TaskManager needs of where tasks are kept: two managers (two server
// processes) over one store of plain JSON records, not the in-memory default. The one that runs a task
// writes its life there; the other answers tasks/get from it (working with its progress message, then
// completed with the result); a task id of another process that the store does not hold is lost, and the error says
// the store does not have it (not that memory was lost in a restart).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { TaskManager } from '../../src/protocol/tasks/manager.js';
import type { TaskStore } from '../../src/protocol/tasks/store.js';
import type { TaskRecord } from '../../src/protocol/tasks/task.js';
import { deferred } from '../support/wire.js';

/** A store shared by "processes": JSON text in a map, as a database or Redis would keep it. */
class SharedStore implements TaskStore {
  readonly texts = new Map<string, string>();

  async create(record: TaskRecord): Promise<void> {
    this.texts.set(record.taskId, JSON.stringify(record));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = this.texts.get(taskId);
    return text === undefined ? undefined : (JSON.parse(text) as TaskRecord);
  }

  /** Told of every record written, once it is stored. */
  onPut: (record: TaskRecord) => void = () => {};

  async put(record: TaskRecord): Promise<void> {
    this.texts.set(record.taskId, JSON.stringify(record));
    this.onPut(record);
  }

  async delete(taskId: string): Promise<void> {
    this.texts.delete(taskId);
  }
}

const origin = {
  requestId: 1,
  protocolVersion: '2026-07-28',
  clientCapabilities: {},
  clientInfo: undefined,
  auth: undefined,
  extensions: {},
};

describe('a task store shared by two task managers', () => {
  it('lets the manager that does not run a task answer tasks/get from the store, to its result', async () => {
    const store = new SharedStore();
    const runner = new TaskManager({ store, ttlMs: null });
    const other = new TaskManager({ store, ttlMs: null });
    const gate = deferred<void>();
    const stored = deferred<void>();
    store.onPut = (record) => {
      if (record.status === 'completed') stored.resolve();
    };
    try {
      const progressed = deferred<void>();
      const created = await runner.start(async (context) => {
        context.progress(1, 2, 'halfway');
        progressed.resolve();
        await gate.promise;
        return { content: [{ type: 'text', text: 'finished elsewhere' }] };
      }, origin);
      const taskId = created.taskId as string;
      await progressed.promise;
      await runner.get(taskId, undefined);
      const working = await other.get(taskId, undefined);
      assert.equal(working.status, 'working');
      assert.equal(working.statusMessage, 'halfway');
      gate.resolve();
      await stored.promise;
      const seen = await other.get(taskId, undefined);
      assert.equal(seen.status, 'completed');
      assert.deepEqual(seen.result, { content: [{ type: 'text', text: 'finished elsewhere' }] });
    } finally {
      runner.close();
      other.close();
    }
  });

  it('reports a task id of another process that the store does not hold as lost, naming the store', async () => {
    const manager = new TaskManager({ store: new SharedStore() });
    try {
      await assert.rejects(
        manager.get('0123456789ab.00000000-0000-4000-8000-000000000000', undefined),
        (error: unknown) => {
          assert.ok(error instanceof JsonRpcError);
          assert.equal(error.code, -32602);
          assert.match(error.message, /started by another server process and is not in the task store/);
          assert.equal((error.data as { reason: string }).reason, 'lost');
          return true;
        },
      );
    } finally {
      manager.close();
    }
  });
});
