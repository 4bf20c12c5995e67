// How bin/mcpwire.js runs the CLI's one script with V8's code cache (src/cli/code-cache.ts): the first run
// writes a cache, the next ones use it; a cache made for other source, a damaged one or one V8 refuses is
// never used and is written again; a folder that is not the user's own alone is never read or written; the
// environment turns it off. The script runs the same with or without a cache.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { codeCacheFolder, runWithCodeCache } from '../../src/cli/code-cache.js';

/** When the test scripts were written, in seconds. */
const WRITTEN_AT = 1_700_000_000;

let work: string;
let folder: string;

beforeEach(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'mcpwire-code-cache-test-'));
  folder = path.join(work, 'cache');
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Writes a script stamped as the build stamps it: it reports to `probe` what it was run with. */
function script(body: string, name = 'script.cjs'): string {
  const unstamped = `// mcpwire-script sha256=${'0'.repeat(64)}\n${body}\n`;
  const hash = createHash('sha256').update(unstamped).digest('hex');
  const file = path.join(work, name);
  writeFileSync(file, unstamped.replace('0'.repeat(64), hash));
  // A whole second, which copies keep exactly.
  utimesSync(file, WRITTEN_AT, WRITTEN_AT);
  return file;
}

const PROBE_BODY = `
'use strict';
function twice(x) { return x * 2; }
const probe = require('probe');
probe({ filename: __filename, dirname: __dirname, exportsIsModule: module.exports === exports,
  strict: (function () { return this === undefined; })(), value: twice(21) });
// A package loaded later, as the CLI loads ajv or jose: with the loader's import().
probe(__import('node:path').then((loaded) => typeof loaded.join));`;

let runs = 0;

/**
 * Runs `file` with the cache in `options.folder` (the test's by default); what the script reported, and the
 * run. Each run runs a copy of its own name: V8 keeps what it compiled in a process by source and name,
 * and a second run of one name in this process would be served from there, whatever the cache held, as
 * it never is in the CLI's one run a process.
 */
function run(file: string, options: { folder?: string } = { folder }) {
  const copy = path.join(work, `run-${++runs}-${path.basename(file)}`);
  copyFileSync(file, copy);
  // The same file for the cache: the same size and time of change.
  const { mtimeMs } = statSync(file);
  utimesSync(copy, mtimeMs / 1000, mtimeMs / 1000);
  const reports: unknown[] = [];
  const { written, ...result } = runWithCodeCache(copy, {
    folder: options.folder,
    name: 'serve',
    writeAfter: 0,
    require: (id) => {
      assert.equal(id, 'probe');
      return (report: unknown) => reports.push(report);
    },
  });
  // The write waits on an unreferenced timer, which would not keep this test's process running by itself.
  const alive = setInterval(() => {}, 60_000);
  void written.finally(() => clearInterval(alive));
  return { ...result, written, reports, copy };
}

describe('runWithCodeCache', () => {
  it('writes a cache on the first run and uses it on the next; the script runs the same both times', async () => {
    const file = script(PROBE_BODY);
    const first = run(file);
    assert.equal(first.state, 'missing');
    assert.equal(await first.written, true);
    assert.ok(first.file && existsSync(first.file));
    assert.equal(path.basename(first.file), `serve-${process.versions.v8}-${process.arch}.cache`);
    // What the script loaded with import(), from source and from its cache alike.
    assert.equal(await first.reports[1], 'function');
    const expected = (copy: string) => ({
      filename: copy,
      dirname: work,
      exportsIsModule: true,
      strict: true,
      value: 42,
    });
    assert.deepEqual(first.reports[0], expected(first.copy));

    const written = readFileSync(first.file);
    const second = run(file);
    assert.equal(second.state, 'used');
    assert.equal(await second.written, false);
    assert.deepEqual(second.reports[0], expected(second.copy));
    assert.equal(await second.reports[1], 'function');
    // Nothing rewritten, nothing left beside it.
    assert.deepEqual(readFileSync(first.file), written);
    assert.deepEqual(readdirSync(folder), [path.basename(first.file)]);
    // Private: the folder and the file are the user's alone.
    if (process.platform !== 'win32') {
      assert.equal(statSync(folder).mode & 0o777, 0o700);
      assert.equal(statSync(first.file).mode & 0o777, 0o600);
    }
  });

  it("a cache made for another script (another stamp) is not used: the new script's replaces it", async () => {
    const one = run(script(PROBE_BODY));
    await one.written;
    const before = readFileSync(one.file!);
    // The same length and the same functions, other values: V8 alone would take the first script's cache
    // and run its bytecode (42), as it checks no more than the source's length.
    const otherFile = script(PROBE_BODY.replace('twice(21)', 'twice(22)'), 'other.cjs');
    const other = run(otherFile);
    assert.equal(other.state, 'missing');
    assert.equal(other.file, one.file);
    assert.equal((other.reports[0] as { value: number }).value, 44);
    assert.equal(await other.written, true);
    assert.notDeepEqual(readFileSync(other.file!), before);
    const again = run(otherFile);
    assert.equal(again.state, 'used');
    assert.equal((again.reports[0] as { value: number }).value, 44);
  });

  it('one cache a command: a name that is not a lower-case word is "main", never a path', async () => {
    const file = script(PROBE_BODY);
    const alive = setInterval(() => {}, 60_000);
    for (const name of ['../escape', 'Serve', '', '--version']) {
      const result = runWithCodeCache(file, {
        folder,
        name,
        writeAfter: 0,
        require: () => () => {},
        import: async () => ({}),
      });
      assert.equal(path.dirname(result.file!), folder);
      assert.match(path.basename(result.file!), /^main-/);
      await result.written;
    }
    clearInterval(alive);
    assert.deepEqual(readdirSync(folder), [`main-${process.versions.v8}-${process.arch}.cache`]);
  });

  it('a script edited in place, stamp and length unchanged, does not run the bytecode of what it was', async () => {
    const file = script(PROBE_BODY);
    const first = run(file);
    await first.written;
    // A patch of the built script (by hand, or by a tool that patches packages): the same length, the
    // same stamp, another value. V8 alone would take the cache and answer 42.
    writeFileSync(file, readFileSync(file, 'utf8').replace('twice(21)', 'twice(22)'));
    utimesSync(file, WRITTEN_AT + 60, WRITTEN_AT + 60);
    const edited = run(file);
    assert.equal(edited.state, 'missing');
    assert.equal((edited.reports[0] as { value: number }).value, 44);
  });

  it('a cache file others can write to is not read', {
    skip: process.platform === 'win32' ? 'no modes on Windows' : false,
  }, async () => {
    const file = script(PROBE_BODY);
    const first = run(file);
    await first.written;
    chmodSync(first.file!, 0o666);
    const shared = run(file);
    assert.equal(shared.state, 'missing');
    assert.equal(await shared.written, true);
    // Written again, privately.
    assert.equal(statSync(first.file!).mode & 0o777, 0o600);
    assert.equal(run(file).state, 'used');
  });

  it('a cache V8 refuses (damaged bytes after a right header) is not used and is written again', async () => {
    const file = script(PROBE_BODY);
    const first = run(file);
    await first.written;
    const bytes = readFileSync(first.file!);
    const header = bytes.subarray(0, bytes.indexOf(0x0a) + 1);
    writeFileSync(first.file!, Buffer.concat([header, Buffer.alloc(bytes.length - header.length, 0x5a)]));
    const damaged = run(file);
    assert.equal(damaged.state, 'rejected');
    assert.equal(damaged.reports.length, 2);
    assert.equal(await damaged.written, true);
    assert.equal(run(file).state, 'used');
  });

  it('a script without the stamp runs without a cache', () => {
    const file = path.join(work, 'plain.cjs');
    writeFileSync(file, PROBE_BODY);
    const result = run(file);
    assert.equal(result.state, 'off');
    assert.equal(result.reports.length, 2);
    assert.equal(existsSync(folder), false);
  });

  it('no folder: runs without a cache', () => {
    const result = run(script(PROBE_BODY), { folder: undefined });
    assert.equal(result.state, 'off');
    assert.equal(result.file, undefined);
    assert.equal(result.reports.length, 2);
  });

  it('a folder others can write into, or a link, is neither read nor written', {
    skip: process.platform === 'win32' ? 'no modes on Windows' : false,
  }, async () => {
    const file = script(PROBE_BODY);
    // A cache planted in a shared folder is code someone else wrote: never run it.
    mkdirSync(folder, { mode: 0o700 });
    const planted = run(file);
    await planted.written;
    chmodSync(folder, 0o777);
    const shared = run(file);
    assert.equal(shared.state, 'off');
    assert.equal(shared.reports.length, 2);

    const elsewhere = path.join(work, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    const link = path.join(work, 'link');
    symlinkSync(elsewhere, link);
    const linked = run(file, { folder: link });
    assert.equal(linked.state, 'off');
    await linked.written;
    assert.deepEqual(readdirSync(elsewhere), []);

    // A file where the folder should be.
    const notFolder = path.join(work, 'file');
    writeFileSync(notFolder, '');
    assert.equal(run(file, { folder: notFolder }).state, 'off');
  });

  it('a folder that cannot be made, or a cache that cannot be written: the script still runs', async () => {
    const file = script(PROBE_BODY);
    const blocked = path.join(work, 'blocked');
    writeFileSync(blocked, '');
    // A folder below a file cannot be made.
    const unmade = run(file, { folder: path.join(blocked, 'cache') });
    assert.equal(unmade.state, 'off');
    assert.equal(unmade.reports.length, 2);
    assert.equal(await unmade.written, false);

    // A folder where the cache file should be: reading it fails (none), and so does renaming onto it.
    const name = path.basename(run(file, { folder: path.join(work, 'learn') }).file!);
    mkdirSync(path.join(folder, name), { recursive: true });
    const unwritten = run(file);
    assert.equal(unwritten.state, 'missing');
    assert.equal(unwritten.reports.length, 2);
    assert.equal(await unwritten.written, false);
    // Nothing half-written is left behind.
    assert.deepEqual(readdirSync(folder), [name]);
  });
});

describe('codeCacheFolder', () => {
  it('MCPWIRE_CODE_CACHE chooses the folder or turns it off; NODE_DISABLE_COMPILE_CACHE turns it off', () => {
    assert.equal(codeCacheFolder({ MCPWIRE_CODE_CACHE: 'off' }), undefined);
    assert.equal(codeCacheFolder({ NODE_DISABLE_COMPILE_CACHE: '1' }), undefined);
    assert.equal(codeCacheFolder({ NODE_DISABLE_COMPILE_CACHE: '1', MCPWIRE_CODE_CACHE: work }), undefined);
    assert.equal(codeCacheFolder({ MCPWIRE_CODE_CACHE: work }), work);
    assert.equal(codeCacheFolder({ MCPWIRE_CODE_CACHE: 'relative/cache' }), path.resolve('relative/cache'));
  });

  it("by default, the user's own folder under the system's temporary folder", () => {
    const user = typeof process.getuid === 'function' ? `-${process.getuid()}` : '';
    assert.equal(codeCacheFolder({}, 'linux'), path.join(os.tmpdir(), `mcpwire-code-cache${user}`));
  });

  it("on Windows, the user's local application data; without it, none", () => {
    const local = path.join(work, 'AppData', 'Local');
    assert.equal(
      codeCacheFolder({ LOCALAPPDATA: local }, 'win32'),
      path.join(local, 'mcpwire', 'code-cache'),
    );
    assert.equal(codeCacheFolder({}, 'win32'), undefined);
    assert.equal(codeCacheFolder({ MCPWIRE_CODE_CACHE: work }, 'win32'), work);
  });
});
