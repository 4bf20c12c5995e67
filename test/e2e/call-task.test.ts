// `mcpwire call --task` through the built binary against `serve everything`: the call declares the tasks
// extension, the server answers long_task with a task, and stderr shows its life (started, each status,
// the progress) while stdout gets the result alone. Without --task the same tool runs as a plain call.
// Ctrl-C while the task runs cancels it on a server that outlives the command (--url) and exits with 130.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { createEverythingServer } from '../../src/servers/everything/index.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
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

  it('cancels the task with tasks/cancel on Ctrl-C and exits with 130', { timeout: 60_000 }, async () => {
    const listener = await createEverythingServer().serveHttp();
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'bin', 'mcpwire.js'),
        'call',
        'long_task',
        'steps=100',
        'stepMs=60000',
        '--task',
        '--url',
        listener.url,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], timeout: 50_000 },
    );
    const client = new McpClient({ name: 't', version: '1', era: 'stateless' });
    let taskId: string | undefined;
    try {
      let stderr = '';
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      // The task exists once its id is on stderr; Ctrl-C then reaches the command alone (as SIGINT).
      taskId = await new Promise<string>((resolve, reject) => {
        child.stderr.setEncoding('utf8').on('data', (text: string) => {
          stderr += text;
          const started = /^task (\S+) started$/m.exec(stderr);
          if (started) resolve(started[1]!);
        });
        child.on('close', () => reject(new Error(`mcpwire call ended before the task started: ${stderr}`)));
      });
      child.kill('SIGINT');
      assert.equal(await exited, 130, stderr);
      assert.match(
        stderr,
        new RegExp(`^mcpwire: SIGINT: sent tasks/cancel for task ${taskId.replace('.', '\\.')}$`, 'm'),
      );
      // The server was told before the command went: the task is cancelled there, not still working.
      await client.connect(new HttpClientTransport(listener.url));
      assert.equal((await client.getTask(taskId)).status, 'cancelled');
    } finally {
      child.kill('SIGKILL');
      // A task left working would hold the listener open: end it here whatever the test found.
      if (taskId) await client.cancelTask(taskId).catch(() => undefined);
      await client.close();
      await listener.close();
    }
  });
});
