// Runs the test files under test/ with Node's own test runner and tsx as the TypeScript loader, one suite
// after the other. Node 20's --test takes no glob patterns, so the files are listed here.
//
//   node scripts/run-tests.mjs [--suite unit|e2e|conformance]... [--update] [FILTER...]
//
// Every *.test.ts under test/ is in exactly one suite, as test/suites.json lists them:
//   unit         in process: no child process, no socket (test/support/in-process.mjs makes either throw)
//   e2e          starts processes or binds sockets: the CLI, stdio servers, HTTP, the SDKs and packaging
//   conformance  the official conformance suite (run `node scripts/setup-conformance.mjs` first; the npm
//                scripts do)
// A file in no suite, in two, or listed but not there fails the run before any test runs: a new test file
// cannot be left out unseen. A list, not folders or a naming rule, so that no test file has to move.
//
// Without --suite, every suite runs. A FILTER keeps the files whose path contains it. --update sets
// MCPWIRE_UPDATE_GOLDEN=1 for the tests, which then rewrite their golden files instead of comparing.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = 'test/suites.json';
const SUITES = ['unit', 'e2e', 'conformance'];
/** What each suite's test processes load besides tsx. */
const IMPORTS = { unit: [path.join(ROOT, 'test', 'support', 'in-process.mjs')], e2e: [], conformance: [] };

function fail(message) {
  console.error(`run-tests: ${message}`);
  process.exit(1);
}

function collect(dir, out) {
  for (const name of readdirSync(path.join(ROOT, dir)).sort()) {
    const file = path.posix.join(dir, name);
    if (statSync(path.join(ROOT, file)).isDirectory()) collect(file, out);
    else if (name.endsWith('.test.ts')) out.push(file);
  }
  return out;
}

/** The suite of every test file, from the manifest, checked against the files that are there. */
function classify() {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, MANIFEST), 'utf8'));
  const unknown = Object.keys(manifest).filter((suite) => !SUITES.includes(suite));
  if (unknown.length > 0)
    fail(`${MANIFEST} has suites ${unknown.join(', ')}; the suites are ${SUITES.join(', ')}`);
  const suiteOf = new Map();
  const problems = [];
  for (const suite of SUITES) {
    for (const file of manifest[suite] ?? []) {
      if (suiteOf.has(file))
        problems.push(`${file} is listed under both "${suiteOf.get(file)}" and "${suite}"`);
      else suiteOf.set(file, suite);
    }
  }
  const files = collect('test', []);
  for (const file of files) {
    if (!suiteOf.has(file)) problems.push(`${file} is in no suite`);
  }
  for (const file of suiteOf.keys()) {
    if (!files.includes(file)) problems.push(`${file} is listed but there is no such test file`);
  }
  if (problems.length > 0) {
    fail(
      `${MANIFEST} does not match the test files:\n  ${problems.join('\n  ')}\n` +
        'Each *.test.ts is listed under exactly one of "unit" (in process: no child process, no socket), ' +
        '"e2e" (starts processes or binds sockets) and "conformance".',
    );
  }
  return suiteOf;
}

const { values, positionals: filters } = (() => {
  try {
    return parseArgs({
      options: { suite: { type: 'string', multiple: true }, update: { type: 'boolean' } },
      allowPositionals: true,
    });
  } catch (error) {
    return fail(
      `${error.message}\nusage: node scripts/run-tests.mjs [--suite ${SUITES.join('|')}]... [--update] [FILTER...]`,
    );
  }
})();
const chosen = values.suite ?? SUITES;
for (const suite of chosen) {
  if (!SUITES.includes(suite)) fail(`there is no suite "${suite}"; the suites are ${SUITES.join(', ')}`);
}

const suiteOf = classify();
const runs = SUITES.filter((suite) => chosen.includes(suite))
  .map((suite) => ({
    suite,
    files: [...suiteOf]
      .filter(([file, of]) => of === suite && (filters.length === 0 || filters.some((p) => file.includes(p))))
      .map(([file]) => file)
      .sort(),
  }))
  .filter((run) => run.files.length > 0);
if (runs.length === 0)
  fail(`no test files matched (suites: ${chosen.join(', ')}; filters: ${filters.join(' ') || 'none'})`);

const env = { ...process.env };
if (values.update) env.MCPWIRE_UPDATE_GOLDEN = '1';

const summary = [];
let status = 0;
for (const { suite, files } of runs) {
  const count = `${files.length} file${files.length === 1 ? '' : 's'}`;
  console.error(`run-tests: ${suite} suite, ${count}`);
  const started = Date.now();
  const imports = ['tsx', ...IMPORTS[suite]].flatMap((module) => ['--import', module]);
  // The unit suite runs in one process: one entry that imports every file. A process per file (tsx
  // loading the sources again each time) cost about 40 of its 56 seconds; these tests start no process
  // and share nothing but the module cache. The other suites keep a process per file.
  const entry = suite === 'unit' ? singleEntry(files) : undefined;
  const result = spawnSync(process.execPath, [...imports, '--test', ...(entry ? [entry.file] : files)], {
    cwd: ROOT,
    env,
    stdio: 'inherit',
  });
  entry?.remove();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const passed = result.status === 0;
  if (!passed) status = result.status || 1;
  summary.push(`${suite}: ${passed ? 'passed' : 'FAILED'} in ${seconds} s (${count})`);
}
console.error(`run-tests: ${summary.join('; ')}`);
process.exit(status);

/** A temporary test file that imports `files`, so that they run in one process. */
function singleEntry(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-unit-'));
  const file = path.join(dir, 'unit.test.ts');
  const lines = files.map((f) => `import ${JSON.stringify(pathToFileURL(path.join(ROOT, f)).href)};`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
