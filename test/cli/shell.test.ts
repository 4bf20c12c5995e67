// The interactive shell through a pseudo-terminal (util-linux `script`): tab completion of commands,
// tool names and argument names, and results printed as they come.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'mcpwire.js');

describe('mcpwire shell', () => {
  let folder: string;
  before(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'mcpwire-shell-'));
    writeFileSync(path.join(folder, 'note.txt'), 'hi');
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('completes tool and argument names with Tab and runs the call', { timeout: 30_000 }, async () => {
    const command = `${process.execPath} ${bin} shell -- ${process.execPath} ${bin} serve fs --root ${folder}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...process.env, NO_COLOR: '1', HOME: folder, TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    const waitFor = (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(screen)) {
            child.stdout.off('data', onData);
            resolve();
          }
        };
        const onData = (chunk: Buffer) => {
          screen += chunk.toString();
          check();
        };
        child.stdout.on('data', onData);
        child.once('exit', () => reject(new Error(`the shell exited; screen:\n${screen}`)));
        check();
      });
    await waitFor(/mcp> /);
    // "list_d" + Tab completes the tool, "p" + Tab the argument name.
    child.stdin.write('call list_d\t');
    await waitFor(/call list_directory /);
    child.stdin.write('p\t');
    await waitFor(/call list_directory path=/);
    child.stdin.write('.\r');
    await waitFor(/\[FILE\] note\.txt/);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.write('exit\r');
    assert.equal(await exited, 0);
  });
});
