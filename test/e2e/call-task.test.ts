// `mcpwire call --task` through the built binary against `serve everything`: the call declares the tasks
// extension, the server answers long_task with a task, and stderr shows its life (started, each status,
// the progress) while stdout gets the result alone. Without --task the same tool runs as a plain call.

import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../support/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const EVERYTHING = ['--', process.execPath, path.join(ROOT, 'bin', 'mcpwire.js'), 'serve', 'everything'];

describe('mcpwire call --task', () => {
  it('shows the task life on stderr and prints its result', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await runCli([
      'call',
      'long_task',
      'steps=3',
      'stepMs=0',
      '--task',
      ...EVERYTHING,
    ]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'Done: 3 steps.\n');
    assert.match(stderr, /^task [0-9a-f]{12}\.[0-9a-f-]{36} started$/m);
    assert.match(stderr, /^task working/m);
    assert.match(stderr, /^task completed/m);
  });

  it('runs the tool as a plain call without --task', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await runCli([
      'call',
      'long_task',
      'steps=2',
      'stepMs=0',
      ...EVERYTHING,
    ]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'Done: 2 steps.\n');
    assert.doesNotMatch(stderr, /task/);
  });
});
