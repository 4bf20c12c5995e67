// `mcpwire doctor --json` against the deliberately broken servers in test/fixtures/broken: the check aimed
// at each fault fails (and a control check passes where the fault leaves one passable), the exit code is
// 1; the correct server passes every check; an unknown check name is a usage error.

import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { allChecks } from '../../src/doctor/checks/index.js';
import { jsonRpcChecks } from '../../src/doctor/checks/jsonrpc.js';
import { lifecycleChecks } from '../../src/doctor/checks/lifecycle.js';
import { stdioChecks } from '../../src/doctor/checks/stdio.js';
import { type CheckResult, selectChecks } from '../../src/doctor/runner.js';
import { type CliRun, runCli } from '../support/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const fixture = (name: string) => path.join(ROOT, 'test', 'fixtures', 'broken', `${name}.mjs`);

interface Report {
  command: string[];
  passed: boolean;
  results: CheckResult[];
}

/** Runs `mcpwire doctor ARGS -- node FIXTURE` to its end. */
function doctor(args: string[], name: string): Promise<CliRun> {
  return runCli(['doctor', ...args, '--', process.execPath, fixture(name)]);
}

/**
 * How long a check waits for an answer that a broken server never sends: short, so that failing checks
 * fail fast, yet long enough for a server to start on a busy machine (the wait includes the start).
 */
const TIMEOUT = 5000;

async function report(args: string[], name: string): Promise<{ code: number | null; report: Report }> {
  const { code, stdout, stderr } = await doctor(['--json', ...args], name);
  let parsed: Report;
  try {
    parsed = JSON.parse(stdout) as Report;
  } catch {
    assert.fail(`doctor --json wrote no JSON (exit ${code}); stdout: ${stdout}\nstderr: ${stderr}`);
  }
  return { code, report: parsed };
}

function byId(results: CheckResult[], id: string): CheckResult {
  const result = results.find((r) => r.id === id);
  assert.ok(result, `the report has no result for ${id}: ${results.map((r) => r.id).join(', ')}`);
  return result;
}

interface Case {
  fixture: string;
  fault: string;
  /** The check aimed at the fault, and what its failure must say. */
  check: string;
  details: RegExp;
  /** A check the fault leaves alone, which must pass (none when every check needs what the fault breaks). */
  control?: string;
}

const CASES: Case[] = [
  {
    fixture: 'prints-on-stdout',
    fault: 'prints on stdout',
    check: 'stdout-purity',
    details: /not JSON-RPC, e\.g\. "debug: wrote a message"/,
    control: 'handshake',
  },
  {
    fixture: 'ignores-parse-errors',
    fault: 'never answers parse errors',
    check: 'parse-error',
    details: new RegExp(`waited ${TIMEOUT} ms for a -32700 response with id null; nothing came`),
    control: 'handshake',
  },
  {
    // Every check starts with initialize, whose answer never carries the id it was sent with: all fail,
    // and the failure shows the string id that came instead.
    fixture: 'string-ids',
    fault: 'echoes ids as strings',
    check: 'id-echo',
    details: /what came instead \(1 line\(s\)\): \{"jsonrpc":"2\.0","id":"1000"/,
  },
  {
    fixture: 'answers-notifications',
    fault: 'answers notifications',
    check: 'notifications-unanswered',
    details: /the server answered a notification: \{"jsonrpc":"2\.0","result":\{\}\}/,
    control: 'handshake',
  },
  {
    fixture: 'hangs-on-stdin-end',
    fault: 'hangs on stdin end',
    check: 'stdin-end',
    details: /still running 5 s after its stdin closed/,
    control: 'sigterm',
  },
  {
    // Like string-ids, no check gets past initialize; the failure shows the lines that are not JSON.
    fixture: 'pretty-printed',
    fault: 'splits messages with raw newlines',
    check: 'stdout-purity',
    details: /\(not JSON\) \{ \| \(not JSON\) {3}"jsonrpc": "2\.0",/,
  },
  {
    fixture: 'dies-on-big-messages',
    fault: 'dies on big messages',
    check: 'large-request',
    details: /the server exited before a response to a 32 MiB request \(exit code 1\)/,
    control: 'handshake',
  },
  {
    fixture: 'decodes-per-chunk',
    fault: 'decodes UTF-8 per read',
    check: 'split-bytes',
    details: /came back as "split-h\uFFFD\uFFFDllo-/,
    control: 'handshake',
  },
  {
    fixture: 'recurses-into-params',
    fault: 'overflows its stack on deep nesting',
    check: 'deep-nesting',
    details: /the server exited before an answer to a request nested 100000 levels deep/,
    control: 'handshake',
  },
  {
    fixture: 'stops-after-a-flood',
    fault: 'stops answering after a flood',
    check: 'flood',
    details: new RegExp(`waited ${TIMEOUT} ms for the answer to the last of 20000 requests sent at once`),
    control: 'handshake',
  },
  {
    fixture: 'cuts-large-responses',
    fault: 'cuts large responses into lines',
    check: 'large-response',
    details:
      /waited 5000 ms for a response to "tools\/call"; what came instead \(\d+ line\(s\)\): \(not JSON\)/,
    control: 'large-request',
  },
];

// A few runs at a time: each runs two servers at once, and too many at once slow every start down.
describe('mcpwire doctor against broken servers', { concurrency: 4 }, () => {
  for (const c of CASES) {
    it(`${c.fixture} (${c.fault}) fails ${c.check}`, { timeout: 60_000 }, async () => {
      const only = c.control ? ['--only', c.check, '--only', c.control] : ['--only', c.check];
      const { code, report: r } = await report(['--timeout', String(TIMEOUT), ...only], c.fixture);
      assert.equal(code, 1, 'a failed check makes the exit code 1');
      assert.equal(r.passed, false);
      assert.deepEqual(r.command, [process.execPath, fixture(c.fixture)]);
      assert.deepEqual(
        r.results.map((x) => x.id).sort(),
        [c.check, ...(c.control ? [c.control] : [])].sort(),
      );

      const failed = byId(r.results, c.check);
      assert.equal(failed.status, 'fail', `${c.check}: ${JSON.stringify(failed.details)}`);
      assert.match(failed.details.join('\n'), c.details);
      const check = allChecks.find((x) => x.id === c.check)!;
      assert.deepEqual(failed.rule, check.rule, 'a failure names its rule and where it is written');
      assert.equal(failed.hint, check.hint, 'a failure carries the hint that says how to fix it');

      if (c.control) {
        const control = byId(r.results, c.control);
        assert.equal(control.status, 'pass', `${c.control}: ${JSON.stringify(control.details)}`);
        assert.equal(control.hint, undefined);
      }
    });
  }

  it('the correct server passes every check (or skips it) and exits 0', { timeout: 120_000 }, async () => {
    const { code, report: r } = await report([], 'correct');
    const notPassing = r.results.filter((x) => x.status !== 'pass' && x.status !== 'skip');
    assert.deepEqual(
      notPassing.map((x) => `${x.id}: ${x.status} ${x.details.join(' ')}`),
      [],
    );
    assert.equal(code, 0);
    assert.equal(r.passed, true);
    assert.deepEqual(
      r.results.map((x) => x.id),
      selectChecks([], 'stdio').map((x) => x.id),
      'every check of a server over stdio ran, in order',
    );
    // Every check of the protocol, framing and process lifetime runs to a pass: none may skip.
    for (const check of [...lifecycleChecks, ...jsonRpcChecks, ...stdioChecks]) {
      assert.equal(byId(r.results, check.id).status, 'pass', check.id);
    }
    // It offers a tool, so the tool checks run too.
    assert.equal(byId(r.results, 'tool-schemas').status, 'pass');
    assert.equal(byId(r.results, 'invalid-params').status, 'pass');
  });

  it('--only takes comma-separated checks too', { timeout: 30_000 }, async () => {
    const { code, report: r } = await report(['--only', 'ping,unknown-method'], 'correct');
    assert.equal(code, 0);
    assert.deepEqual(
      r.results.map((x) => [x.id, x.status]),
      [
        ['ping', 'pass'],
        ['unknown-method', 'pass'],
      ],
    );
  });

  it('--timeout that is not a positive number of milliseconds is a usage error, not an endless wait', {
    timeout: 30_000,
  }, async () => {
    for (const bad of ['abc', '0', '-5', '1.5']) {
      const { code, stdout, stderr } = await doctor(
        ['--json', `--timeout=${bad}`, '--only', 'parse-error'],
        'ignores-parse-errors',
      );
      assert.equal(code, 2, `--timeout ${bad}`);
      assert.equal(stdout, '');
      assert.equal(
        stderr,
        `mcpwire doctor: --timeout takes a number of milliseconds, such as 2000; got "${bad}"\n`,
      );
    }
  });

  it('--only with a check that does not exist is a usage error naming the valid checks', {
    timeout: 30_000,
  }, async () => {
    const { code, stdout, stderr } = await doctor(['--json', '--only', 'nonexistent'], 'correct');
    assert.equal(code, 2);
    assert.equal(stdout, '', 'no report, and no server was run');
    assert.match(stderr, /^mcpwire doctor: no check named nonexistent; checks over stdio: /);
    for (const check of selectChecks([], 'stdio'))
      assert.ok(stderr.includes(check.id), `stderr does not name ${check.id}`);
  });

  it('--only with a check of the HTTP binding is a usage error over stdio', { timeout: 30_000 }, async () => {
    const { code, stdout, stderr } = await doctor(['--only', 'http-origin'], 'correct');
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /^mcpwire doctor: http-origin does not apply to a server over stdio/);
  });
});
