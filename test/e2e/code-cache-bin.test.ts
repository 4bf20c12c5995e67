// The `mcpwire` executable runs the CLI's one script with V8's code cache (issue 21; src/cli/code-cache.ts):
// the first run of a command writes its cache, even a run that ends before the cache's wait; later runs use
// it and leave it as it is; stdout carries the command's output and nothing else; MCPWIRE_CODE_CACHE=off
// writes nothing. Without a build, it says what to run. Needs the build (`npm run build`).

import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CliRun, runCli } from '../support/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'mcpwire.js');
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
})}\n`;

/** Runs the executable (`bin`) with `env` added, from the temporary folder; `input` on its stdin. */
function mcpwire(bin: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliRun> {
  return runCli(args, 60_000, { ...process.env, ...env }, { bin, input, cwd: os.tmpdir() });
}

/** The cache files in `folder`, by name, with what identifies each file's one write. */
function caches(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(folder)) {
    const stat = statSync(path.join(folder, name));
    files.set(name, `${stat.ino}:${stat.mtimeMs}:${stat.size}`);
  }
  return files;
}

let work: string;
before(async () => {
  assert.ok(existsSync(path.join(ROOT, 'dist', 'cli', 'mcpwire.cjs')), 'run "npm run build" first');
  work = await mkdtemp(path.join(os.tmpdir(), 'mcpwire-bin-cache-'));
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the mcpwire executable and its code cache', { timeout: 60_000 }, () => {
  it('a short command writes its cache as it exits; the next run uses it and leaves it be', async () => {
    const folder = path.join(work, 'version');
    const env = { MCPWIRE_CODE_CACHE: folder };
    const first = await mcpwire(BIN, ['--version'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^\d+\.\d+\.\d+\n$/);
    assert.equal(first.stderr, '');
    const written = caches(folder);
    assert.equal(written.size, 1);
    assert.match([...written.keys()][0]!, /^main-.+\.cache$/);

    const second = await mcpwire(BIN, ['--version'], env);
    assert.deepEqual(second, first);
    // Not written again: V8 took the cache.
    assert.deepEqual(caches(folder), written);
  });

  it('serve answers initialize, with only the protocol on stdout, with and without its cache', async () => {
    const folder = path.join(work, 'serve');
    const env = { MCPWIRE_CODE_CACHE: folder };
    const answers: unknown[] = [];
    let afterFirst: Map<string, string> | undefined;
    for (let run = 0; run < 2; run++) {
      const ran = await mcpwire(BIN, ['serve', 'everything'], env, INITIALIZE);
      assert.equal(ran.code, 0, ran.stderr);
      const lines = ran.stdout.split('\n');
      assert.equal(lines.length, 2, ran.stdout);
      const answer = JSON.parse(lines[0]!) as { id: number; result: { serverInfo: { name: string } } };
      assert.equal(answer.id, 1);
      answers.push(answer);
      // The second run used the first's cache: one V8 refused would have been written again.
      if (run === 0) afterFirst = caches(folder);
      else assert.deepEqual(caches(folder), afterFirst);
    }
    assert.deepEqual(answers[1], answers[0]);
    const written = [...caches(folder).keys()];
    assert.equal(written.length, 1);
    assert.match(written[0]!, /^serve-/);
  });

  it('a command that loads a package when it needs it (serve fs: picomatch) does so from its cache too', async () => {
    const folder = path.join(work, 'fs');
    const root = path.join(work, 'root');
    mkdirSync(root);
    writeFileSync(path.join(root, 'note.txt'), 'hello note\n');
    const requests = [
      INITIALIZE,
      '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'search_files', arguments: { path: '.', pattern: '*.txt' } },
      })}\n`,
    ].join('');
    let afterFirst: Map<string, string> | undefined;
    for (let run = 0; run < 2; run++) {
      const ran = await mcpwire(
        BIN,
        ['serve', 'fs', '--root', root],
        { MCPWIRE_CODE_CACHE: folder },
        requests,
      );
      assert.equal(ran.code, 0, ran.stderr);
      const answer = JSON.parse(ran.stdout.trim().split('\n').at(-1)!) as {
        id: number;
        result?: { isError?: boolean; content: Array<{ text: string }> };
      };
      assert.equal(answer.id, 2);
      assert.ok(answer.result && !answer.result.isError, `run ${run}: ${ran.stdout}`);
      assert.match(answer.result.content[0]!.text, /note\.txt/);
      // No warning of an experimental feature, nor anything else.
      assert.equal(ran.stderr, '');
      // The second run used the first's cache: one V8 refused would have been written again.
      if (run === 0) afterFirst = caches(folder);
      else assert.deepEqual(caches(folder), afterFirst);
    }
    assert.equal(caches(folder).size, 1);
  });

  it('MCPWIRE_CODE_CACHE=off and NODE_DISABLE_COMPILE_CACHE write nothing', async () => {
    const folder = path.join(work, 'off');
    for (const env of [
      { MCPWIRE_CODE_CACHE: 'off' },
      { NODE_DISABLE_COMPILE_CACHE: '1', MCPWIRE_CODE_CACHE: folder },
    ]) {
      const ran = await mcpwire(BIN, ['--version'], env);
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stdout, /^\d+\.\d+\.\d+\n$/);
    }
    assert.equal(existsSync(folder), false);
  });

  it('a usage error (a mistyped command) writes no cache', async () => {
    const folder = path.join(work, 'typo');
    const ran = await mcpwire(BIN, ['srve', 'everything'], { MCPWIRE_CODE_CACHE: folder });
    assert.equal(ran.code, 2);
    assert.match(ran.stderr, /unknown command "srve"/);
    assert.deepEqual(readdirSync(folder), []);
  });

  it('without a build, it says to build and exits with 1', async () => {
    const bin = path.join(work, 'unbuilt', 'bin');
    mkdirSync(bin, { recursive: true });
    for (const file of ['mcpwire.js', 'package.json'])
      copyFileSync(path.join(ROOT, 'bin', file), path.join(bin, file));
    const ran = await mcpwire(path.join(bin, 'mcpwire.js'), ['--version'], {});
    assert.equal(ran.code, 1);
    assert.equal(ran.stdout, '');
    assert.match(ran.stderr, /the build is missing; run "npm run build"/);
  });
});
