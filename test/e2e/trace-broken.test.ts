// `mcpwire trace --format jsonl --log FILE` in front of the deliberately broken servers in
// test/fixtures/broken, driven by a scripted client: the client gets exactly the bytes the server writes
// (the same exchange run straight against the server is the reference), the log has a problem of the
// right kind for each fault and none for the correct server, messages carry direction and latency, the
// server's stderr is recorded, and trace exits with the server's exit code.

import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { TraceRecord } from '../../src/inspect/trace-format.js';
import type { ProblemKind } from '../../src/inspect/wire-monitor.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'mcpwire.js');
const fixture = (name: string) => path.join(ROOT, 'test', 'fixtures', 'broken', `${name}.mjs`);
/** How long any one wait may take before the test fails: a failure limit, never a synchronisation. */
const LIMIT = 20_000;

const workDir = mkdtempSync(path.join(tmpdir(), 'mcpwire-trace-test-'));
/** Processes still running; a failed test leaves some, which are ended so that the run can end. */
const live = new Set<Proc>();
after(() => {
  // SIGTERM: trace passes it on to its server, and every fixture ends on it.
  for (const proc of live) proc.child.kill('SIGTERM');
  rmSync(workDir, { recursive: true, force: true });
});

/** A process under test: everything it writes is kept, and a wait re-checks on every byte that arrives. */
class Proc {
  readonly child: ChildProcessWithoutNullStreams;
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly out: Buffer[] = [];
  private err = '';
  private readonly wakers = new Set<() => void>();
  private done = false;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin.on('error', () => {
      // A server that dies on a big message closes its stdin while the rest is still being written.
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.out.push(chunk);
      this.wake();
    });
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.err += text;
      this.wake();
    });
    live.add(this);
    this.closed = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        live.delete(this);
        this.done = true;
        this.wake();
        resolve({ code, signal });
      });
    });
  }

  get stdout(): Buffer {
    return Buffer.concat(this.out);
  }

  get stderr(): string {
    return this.err;
  }

  /** Resolves once `predicate` holds; fails if the process ends first or LIMIT passes. */
  until(predicate: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`waited ${LIMIT} ms for ${what}`)), LIMIT);
      const check = () => {
        if (predicate()) finish();
        else if (this.done) finish(new Error(`the process ended before ${what}; stderr: ${this.err}`));
      };
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.wakers.delete(check);
        if (error) reject(error);
        else resolve();
      };
      this.wakers.add(check);
      check();
    });
  }

  private wake(): void {
    for (const check of [...this.wakers]) check();
  }
}

/** Resolves once the file's text satisfies `predicate` (checked on every change); fails after LIMIT. */
function untilFile(file: string, predicate: (text: string) => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(file);
    const timer = setTimeout(() => finish(new Error(`waited ${LIMIT} ms for ${what} in ${file}`)), LIMIT);
    const check = () => {
      if (predicate(readFileSync(file, 'utf8'))) finish();
    };
    const finish = (error?: Error) => {
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve();
    };
    watcher.on('change', check);
    check();
  });
}

// ---- the scripted client ----

const BAD_JSON = '{"jsonrpc": "2.0", "id": 9, "method": "ping", oops}';
const BIG = 2 * 1024 * 1024;
/** What the client sends: a session with a bad line in it, and a request above 1 MiB last. */
const SCRIPT: Array<object | string> = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'trace-test', version: '1' },
    },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  {
    jsonrpc: '2.0',
    id: 'three',
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'zwei\nZeilen, ein Smiley 🙂' } },
  },
  BAD_JSON,
  { jsonrpc: '2.0', id: 4, method: 'ping' },
  { jsonrpc: '2.0', id: 5, method: 'ping', params: { _meta: { padding: 'x'.repeat(BIG) } } },
];
const INPUT = Buffer.from(
  SCRIPT.map((m) => `${typeof m === 'string' ? m : JSON.stringify(m)}\n`).join(''),
  'utf8',
);
const SENT_MESSAGES = SCRIPT.filter((m) => typeof m !== 'string');
/** The methods of the requests, in order, as responses to them name them. */
const ANSWERS = ['initialize', 'tools/list', 'tools/call', 'ping', 'ping'];

/**
 * Feeds the script to a process once the server in it is up (its first line on stderr), in uneven chunks
 * with a cut inside the 🙂, then closes its input.
 */
async function drive(proc: Proc, name: string): Promise<void> {
  await proc.until(() => proc.stderr.includes(`${name}: serving on stdio`), 'the server to start');
  const smiley = INPUT.indexOf(Buffer.from('🙂')) + 2;
  for (const [start, end] of [
    [0, 7],
    [7, smiley],
    [smiley, INPUT.length],
  ] as const) {
    proc.child.stdin.write(INPUT.subarray(start, end));
  }
  proc.child.stdin.end();
}

const HUNG_UP = (proc: Proc) => proc.stdout.includes('"id":5,');

interface Outcome {
  stdout: Buffer;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The same exchange straight against the server: the reference for the bytes. */
async function direct(name: string, hangs: boolean): Promise<Outcome> {
  const proc = new Proc([fixture(name)]);
  await drive(proc, name);
  if (hangs) {
    await proc.until(() => HUNG_UP(proc), 'the last response');
    proc.child.kill('SIGTERM');
  }
  const { code, signal } = await proc.closed;
  return { stdout: proc.stdout, stderr: proc.stderr, code, signal };
}

/** The exchange through `mcpwire trace`; `stop` is the signal a host would send a server that hangs. */
async function traced(
  name: string,
  stop?: NodeJS.Signals,
): Promise<Outcome & { records: TraceRecord[]; log: string }> {
  const log = path.join(workDir, `${name}-${stop ?? 'run'}.jsonl`);
  writeFileSync(log, '');
  const proc = new Proc([
    BIN,
    'trace',
    '--format',
    'jsonl',
    '--log',
    log,
    '--',
    process.execPath,
    fixture(name),
  ]);
  await drive(proc, name);
  if (stop) {
    await Promise.all([
      untilFile(log, (text) => text.includes('"kind":"no-exit"'), 'a no-exit problem'),
      proc.until(() => HUNG_UP(proc), 'the last response'),
    ]);
    proc.child.kill(stop);
  }
  const { code, signal } = await proc.closed;
  const text = readFileSync(log, 'utf8');
  const records = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as TraceRecord);
  return { stdout: proc.stdout, stderr: proc.stderr, code, signal, records, log };
}

const exitCode = (o: { code: number | null; signal: NodeJS.Signals | null }) =>
  o.code ?? 128 + constants.signals[o.signal!];

type Problem = Extract<TraceRecord, { type: 'problem' }>;
type Message = Extract<TraceRecord, { type: 'message' }>;

interface Case {
  fixture: string;
  /** The kinds of the problems the server's side must have, and no other. */
  kinds: ProblemKind[];
  /** What the fault looks like in the bytes the server wrote. */
  marker: string;
  /** The methods of the responses the trace matched to their requests. */
  answers: string[];
  /** More about this fault's problems. */
  check(problems: Problem[]): void;
  hangs?: boolean;
}

const CASES: Case[] = [
  {
    fixture: 'correct',
    kinds: [],
    marker: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n',
    answers: ANSWERS,
    check() {},
  },
  {
    fixture: 'prints-on-stdout',
    kinds: ['not-json'],
    marker: '\ndebug: wrote a message\n',
    answers: ANSWERS,
    check(problems) {
      // One print after each of its six messages (five responses and the parse error).
      assert.equal(problems.length, 6);
      for (const p of problems) assert.equal(p.bytes, 'debug: wrote a message');
    },
  },
  {
    fixture: 'ignores-parse-errors',
    kinds: ['unanswered'],
    marker: '"id":4,"result":{}}\n{"jsonrpc":"2.0","id":5,',
    answers: ANSWERS,
    check([problem]) {
      assert.match(
        problem!.message,
        /^a line of the client that was not JSON never got a -32700 Parse error response \(id null\); the server exited with code 0$/,
      );
    },
  },
  {
    fixture: 'string-ids',
    kinds: ['unknown-response', 'unanswered'],
    marker: '{"jsonrpc":"2.0","id":"1","result":',
    // Only the request whose id was a string already gets its answer matched.
    answers: ['tools/call'],
    check(problems) {
      const unknown = problems.filter((p) => p.kind === 'unknown-response');
      assert.deepEqual(
        unknown.map((p) => p.message),
        ['"1"', '"2"', '"4"', '"5"'].map(
          (id) => `a response to id ${id}, which matches no request in flight`,
        ),
      );
      const unanswered = problems.filter((p) => p.kind === 'unanswered').map((p) => p.message);
      assert.deepEqual(unanswered, [
        '"initialize" (id 1) was never answered; the server exited with code 0',
        '"tools/list" (id 2) was never answered; the server exited with code 0',
        '"ping" (id 4) was never answered; the server exited with code 0',
        '"ping" (id 5) was never answered; the server exited with code 0',
      ]);
    },
  },
  {
    fixture: 'answers-notifications',
    kinds: ['response-to-notification'],
    marker: '\n{"jsonrpc":"2.0","result":{}}\n',
    answers: ANSWERS,
    check([problem]) {
      assert.equal(problem!.bytes, '{"jsonrpc":"2.0","result":{}}');
    },
  },
  {
    fixture: 'hangs-on-stdin-end',
    kinds: ['no-exit'],
    marker: '"id":5,"result":{}}\n',
    answers: ANSWERS,
    hangs: true,
    check([problem]) {
      assert.match(problem!.message, /^the server is still running \d+ ms after its stdin closed/);
    },
  },
  {
    fixture: 'pretty-printed',
    kinds: ['raw-newline'],
    marker: '{\n  "jsonrpc": "2.0",\n  "id": 1,\n',
    answers: ANSWERS,
    check(problems) {
      assert.equal(problems.length, 6, 'one problem per message, however many lines it spans');
      assert.ok(problems[0]!.bytes!.startsWith('{\n  "jsonrpc": "2.0",\n  "id": 1,\n'));
    },
  },
  {
    fixture: 'dies-on-big-messages',
    kinds: ['unanswered'],
    marker: '"id":4,"result":{}}\n',
    answers: ANSWERS.slice(0, -1),
    check([problem]) {
      assert.equal(problem!.message, '"ping" (id 5) was never answered; the server exited with code 1');
    },
  },
];

// A few cases at a time: each runs three processes, and the grace before no-exit is a second.
describe('mcpwire trace in front of broken servers', { concurrency: 4 }, () => {
  for (const c of CASES) {
    it(`${c.fixture}: same bytes, ${c.kinds.join(' and ') || 'no problem'} in the log`, {
      timeout: 60_000,
    }, async () => {
      const [reference, run] = await Promise.all([
        direct(c.fixture, c.hangs === true),
        traced(c.fixture, c.hangs ? 'SIGTERM' : undefined),
      ]);

      // The client gets exactly what the server writes, the fault included.
      assert.ok(reference.stdout.includes(c.marker), `the fixture did not write ${JSON.stringify(c.marker)}`);
      assert.ok(
        run.stdout.equals(reference.stdout),
        `trace changed the bytes: got ${JSON.stringify(run.stdout.toString().slice(0, 500))}, the server wrote ${JSON.stringify(reference.stdout.toString().slice(0, 500))}`,
      );
      // Trace exits with the server's code (128 + the signal's number when it was killed).
      assert.equal(run.signal, null);
      assert.equal(run.code, exitCode(reference));
      if (c.hangs) assert.equal(run.code, 128 + constants.signals.SIGTERM);

      const { records } = run;
      for (const r of records)
        assert.ok(!Number.isNaN(Date.parse(r.time)), `a bad time: ${JSON.stringify(r)}`);
      const problems = records.filter((r): r is Problem => r.type === 'problem');
      const messages = records.filter((r): r is Message => r.type === 'message');

      // The client's bad line is the client's, whatever the server.
      assert.deepEqual(
        problems.filter((p) => p.from === 'client').map((p) => [p.kind, p.bytes]),
        [['not-json', BAD_JSON]],
      );
      const serverProblems = problems.filter((p) => p.from === 'server');
      assert.deepEqual(
        [...new Set(serverProblems.map((p) => p.kind))].sort(),
        [...c.kinds].sort(),
        JSON.stringify(serverProblems, null, 1),
      );
      c.check(serverProblems);

      // Messages carry their direction, and responses the latency of the request they answer.
      assert.deepEqual(
        messages.filter((m) => m.from === 'client').map((m) => m.payload),
        SENT_MESSAGES,
      );
      const answered = messages.filter((m) => m.latencyMs !== undefined);
      assert.deepEqual(
        answered.map((m) => m.answers),
        c.answers,
      );
      for (const m of answered) {
        assert.equal(m.from, 'server');
        assert.ok(m.latencyMs! >= 0 && m.latencyMs! < LIMIT, `latency ${m.latencyMs}`);
      }
      assert.ok(messages.some((m) => m.from === 'server'));

      // The server's stderr is recorded, and still reaches trace's own stderr.
      const stderr = records
        .filter((r) => r.type === 'stderr')
        .map((r) => (r as { text: string }).text)
        .join('');
      assert.equal(stderr, reference.stderr);
      assert.ok(run.stderr.includes(`${c.fixture}: serving on stdio\n`));

      // The last record is the server's exit.
      assert.deepEqual(records.at(-1) && { ...records.at(-1), time: '' }, {
        type: 'exit',
        time: '',
        code: reference.code,
        signal: reference.signal,
      });
    });
  }

  it('records stderr text whole when a UTF-8 character is split across reads', {
    timeout: 60_000,
  }, async () => {
    const log = path.join(workDir, 'split-stderr.jsonl');
    const proc = new Proc([
      BIN,
      'trace',
      '--format',
      'jsonl',
      '--log',
      log,
      '--',
      process.execPath,
      fixture('split-stderr'),
    ]);
    // Trace passes the server's stderr on to its own: once "caf" is there, the first half was read.
    await proc.until(() => proc.stderr.includes('serving on stdio\ncaf'), 'the first half of the character');
    proc.child.stdin.end(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    assert.deepEqual(await proc.closed, { code: 0, signal: null });
    const stderr = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as TraceRecord)
      .flatMap((r) => (r.type === 'stderr' ? [r.text] : []));
    assert.equal(stderr.join(''), 'split-stderr: serving on stdio\ncafé\n');
    assert.ok(proc.stderr.endsWith('café\n'), 'the bytes still reach trace’s stderr unchanged');
  });

  it('a hung server ended by SIGINT: trace forwards it and exits 130', { timeout: 60_000 }, async () => {
    const run = await traced('hangs-on-stdin-end', 'SIGINT');
    assert.equal(run.code, 128 + constants.signals.SIGINT);
    assert.deepEqual(run.records.at(-1) && { ...run.records.at(-1), time: '' }, {
      type: 'exit',
      time: '',
      code: null,
      signal: 'SIGINT',
    });
  });
});
