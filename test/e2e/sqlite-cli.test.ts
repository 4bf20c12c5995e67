// `mcpwire serve sqlite` as a process, the way a host runs it: start-up errors are one sentence and a
// hint with exit code 2 (never a stack trace, never a byte on stdout); a stdio session answers, cancels a
// statement stuck inside SQLite by killing its query process, and exits when stdin ends; a query process
// does not outlive a server that was killed; and `mcpwire doctor` passes every check.
// Needs the build (`npm run build`): bin/mcpwire.js runs dist/.

import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildFixture, makeTempDir, query, removeDir } from '../support/sqlite-harness.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'mcpwire.js');

/** Streams 599 rows (a batch of them, with progress, comes out), then blocks inside SQLite for minutes. */
const STUCK_AFTER_500_ROWS = `WITH RECURSIVE
  c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000),
  big(y) AS (SELECT 1 UNION ALL SELECT y + 1 FROM big WHERE y < 1e9)
  SELECT x, CASE WHEN x = 600 THEN (SELECT count(*) FROM big) END AS slow FROM c`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function mcpwire(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A server over stdio, spoken to in newline-delimited JSON. */
class StdioServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Array<Record<string, unknown>> = [];
  private buffer = '';
  private readonly waiters: Array<{ test: (m: Record<string, unknown>) => boolean; resolve: () => void }> =
    [];
  stderr = '';
  readonly stderrClosed: Promise<void>;
  readonly exited: Promise<number | null>;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [BIN, 'serve', 'sqlite', ...args], { cwd: ROOT });
    this.child.stdout.setEncoding('utf8').on('data', (text: string) => {
      this.buffer += text;
      let newline = this.buffer.indexOf('\n');
      while (newline !== -1) {
        const message = JSON.parse(this.buffer.slice(0, newline)) as Record<string, unknown>;
        this.buffer = this.buffer.slice(newline + 1);
        this.messages.push(message);
        for (const waiter of [...this.waiters]) {
          if (waiter.test(message)) {
            this.waiters.splice(this.waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
        newline = this.buffer.indexOf('\n');
      }
    });
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.stderr += text;
    });
    // The pipe closes when every process holding it has ended: the server and its query processes.
    this.stderrClosed = new Promise((resolve) => this.child.stderr.on('close', () => resolve()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  send(message: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  next(test: (m: Record<string, unknown>) => boolean, what: string): Promise<Record<string, unknown>> {
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${what}; got ${JSON.stringify(this.messages)}`)),
        30_000,
      );
      this.waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.messages.find(test)!);
        },
      });
    });
  }

  async request(id: number, method: string, params: Record<string, unknown> = {}) {
    this.send({ id, method, params });
    return this.next((m) => m.id === id, `response ${id}`);
  }

  async initialize(): Promise<void> {
    await this.request(0, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'e2e', version: '1' },
    });
    this.send({ method: 'notifications/initialized' });
  }

  /** The server's child processes (its query processes), read from /proc. */
  children(): number[] {
    const pid = this.child.pid!;
    const text = readdirSync(`/proc/${pid}/task`)
      .map((task) => {
        try {
          return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
        } catch {
          return '';
        }
      })
      .join(' ');
    return text.split(/\s+/).filter(Boolean).map(Number);
  }
}

/** Whether a process runs: a zombie (ended, not yet reaped by whoever adopted it) does not. */
function isAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
  return state !== 'Z' && state !== 'X';
}

let directory: string;
let fixture: string;

before(async () => {
  directory = await makeTempDir('mcpwire-sqlite-e2e-');
  fixture = path.join(directory, 'fixture.db');
  buildFixture(fixture);
});

after(() => removeDir(directory));

describe('start-up errors', () => {
  function assertOneSentenceAndHint(run: Run, sentence: RegExp, hint: RegExp): void {
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '', 'nothing on stdout, which belongs to MCP');
    const lines = run.stderr.split('\n');
    assert.equal(lines.length, 3, `one sentence and a hint: ${run.stderr}`);
    assert.match(lines[0]!, sentence);
    assert.match(lines[1]!, hint);
    assert.equal(lines[2], '');
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  }

  it('a missing file', async () => {
    const missing = path.join(directory, 'missing.db');
    assertOneSentenceAndHint(
      await mcpwire(['serve', 'sqlite', missing]),
      /^mcpwire serve: the database file .*missing\.db does not exist$/,
      /^hint: Check the path, or add --create to make a new, empty database there\.$/,
    );
    assert.equal(existsSync(missing), false, 'nothing was created');
  });

  it('a file that is not a database, a directory, a directory that does not exist', async () => {
    const text = path.join(directory, 'text.txt');
    writeFileSync(text, 'plain text, not SQLite, long enough to fill a header: '.repeat(3));
    assertOneSentenceAndHint(
      await mcpwire(['serve', 'sqlite', text]),
      /^mcpwire serve: .*text\.txt is not a SQLite database \(SQLite says: file is not a database\)$/,
      /--create/,
    );
    assertOneSentenceAndHint(
      await mcpwire(['serve', 'sqlite', directory]),
      /is not a file$/,
      /SQLite database file/,
    );
    assertOneSentenceAndHint(
      await mcpwire(['serve', 'sqlite', path.join(directory, 'nope', 'new.db'), '--create']),
      /cannot create .*new\.db: the directory .*nope does not exist or is not writable$/,
      /Create the directory first/,
    );
  });

  it('wrong arguments', async () => {
    assertOneSentenceAndHint(await mcpwire(['serve', 'sqlite']), /which database\?/, /--create/);
    const two = await mcpwire(['serve', 'sqlite', fixture, 'other.db']);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /takes one database file; got also "other\.db"/);
    const rows = await mcpwire(['serve', 'sqlite', fixture, '--max-rows', 'many']);
    assert.equal(rows.code, 2);
    assert.match(rows.stderr, /--max-rows takes a whole number of at least 1; got "many"/);
    const memory = await mcpwire(['serve', 'sqlite', fixture, '--max-query-memory', '1MiB']);
    assert.equal(memory.code, 2);
    assert.match(memory.stderr, /--max-query-memory must be at least 128 MiB/);
    const size = await mcpwire(['serve', 'sqlite', fixture, '--max-query-memory', 'lots']);
    assert.equal(size.code, 2);
    assert.match(size.stderr, /--max-query-memory takes a size such as/);
    const unknown = await mcpwire(['serve', 'sqlite', fixture, '--root', '/']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown option '--root'/);
    const help = await mcpwire(['serve', '--help']);
    assert.match(help.stdout, /mcpwire serve sqlite DB_FILE \[--write\] \[--create\]/);
  });
});

describe('a stdio session', () => {
  it('--create makes the database, and the server exits when stdin ends', async () => {
    const file = path.join(directory, 'created.db');
    const server = new StdioServer([file, '--create', '--write']);
    await server.initialize();
    assert.ok(existsSync(file));
    const created = await server.request(1, 'tools/call', {
      name: 'create_table',
      arguments: { sql: 'CREATE TABLE t (a TEXT)' },
    });
    assert.deepEqual((created.result as { structuredContent: unknown }).structuredContent, {
      created: true,
      table: 't',
    });
    await server.request(2, 'tools/call', {
      name: 'write_query',
      arguments: { sql: 'INSERT INTO t VALUES (?)', params: ['from e2e'] },
    });
    server.child.stdin.end();
    assert.equal(await server.exited, 0);
    await server.stderrClosed;
    assert.deepEqual(query(file, 'SELECT a FROM t'), [{ a: 'from e2e' }]);
  });

  it('--max-query-memory bounds a query process: a statement that outgrows it is an error, and the server goes on', {
    timeout: 60_000,
  }, async () => {
    const server = new StdioServer([fixture, '--max-query-memory', '200MiB']);
    await server.initialize();
    // Nested non-materialized CTEs: prepare() doubles its memory a level, to gigabytes at 22 levels.
    const parts = ['a0(c) AS NOT MATERIALIZED (SELECT 1)'];
    for (let i = 1; i < 22; i++) {
      parts.push(`a${i}(c) AS NOT MATERIALIZED (SELECT c FROM a${i - 1} UNION ALL SELECT c FROM a${i - 1})`);
    }
    const hungry = await server.request(3, 'tools/call', {
      name: 'read_query',
      arguments: { sql: `WITH ${parts.join(', ')} SELECT count(*) AS n FROM a21` },
    });
    const answer = hungry.result as { isError?: boolean; content: Array<{ text: string }> };
    assert.equal(answer.isError, true);
    assert.match(
      answer.content[0]!.text,
      /more memory than the query process may use \(200 MiB\).*--max-query-memory/,
    );
    const next = await server.request(4, 'tools/call', {
      name: 'read_query',
      arguments: { sql: 'SELECT count(*) AS n FROM users' },
    });
    assert.deepEqual((next.result as { structuredContent: { rows: unknown } }).structuredContent.rows, [
      { n: 3 },
    ]);
    server.child.stdin.end();
    assert.equal(await server.exited, 0);
  });

  it('--max-message-size bounds the rows of an answer: the rows that fit, and how to narrow the query', {
    timeout: 60_000,
  }, async () => {
    const server = new StdioServer([fixture, '--max-message-size', '1MiB']);
    await server.initialize();
    const sql = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5)
      SELECT i, hex(zeroblob(200000)) AS v FROM n`;
    const answer = await server.request(5, 'tools/call', { name: 'read_query', arguments: { sql } });
    const result = answer.result as {
      structuredContent: { rows: unknown[] };
      content: Array<{ text: string }>;
    };
    // Four rows of 400,000 bytes would not fit in 1 MiB; two do.
    assert.equal(result.structuredContent.rows.length, 2);
    assert.match(result.content[0]!.text, /larger than the maximum message size.*--max-message-size/);
    assert.ok(Buffer.byteLength(JSON.stringify(answer)) <= 1 << 20);
    server.child.stdin.end();
    assert.equal(await server.exited, 0);
  });

  it('cancels a statement stuck inside SQLite by killing its query process; no response is sent', {
    skip: existsSync('/proc/self/task') ? false : 'reads the process tree from /proc',
    timeout: 60_000,
  }, async () => {
    const server = new StdioServer([fixture]);
    await server.initialize();
    server.send({
      id: 7,
      method: 'tools/call',
      params: {
        name: 'read_query',
        arguments: { sql: STUCK_AFTER_500_ROWS, maxRows: 1000 },
        _meta: { progressToken: 'p' },
      },
    });
    const progress = await server.next((m) => m.method === 'notifications/progress', 'progress');
    const update = progress.params as { progressToken: string; progress: number; message: string };
    assert.equal(update.progressToken, 'p');
    assert.match(update.message, /^\d+ rows so far$/);
    const [queryProcess, ...more] = server.children();
    assert.equal(more.length, 0);
    assert.ok(queryProcess !== undefined && isAlive(queryProcess));

    server.send({ method: 'notifications/cancelled', params: { requestId: 7, reason: 'the user gave up' } });
    // The server stays responsive, and once the process is gone the cancelled call has settled.
    const ping = await server.request(8, 'ping');
    assert.deepEqual(ping.result, {});
    const next = await server.request(9, 'tools/call', {
      name: 'read_query',
      arguments: { sql: 'SELECT count(*) AS n FROM users' },
    });
    assert.deepEqual((next.result as { structuredContent: { rows: unknown } }).structuredContent.rows, [
      { n: 3 },
    ]);
    assert.equal(isAlive(queryProcess), false, 'the query process was killed');
    assert.deepEqual(
      server.messages.filter((m) => m.id === 7),
      [],
      'the cancelled request got no response',
    );
    server.child.stdin.end();
    assert.equal(await server.exited, 0);
  });

  it('a query process stuck inside SQLite does not outlive a server that was killed', {
    skip: existsSync('/proc/self/task') ? false : 'reads the process tree from /proc',
    timeout: 60_000,
  }, async () => {
    const server = new StdioServer([fixture]);
    await server.initialize();
    server.send({
      id: 1,
      method: 'tools/call',
      params: {
        name: 'read_query',
        arguments: { sql: STUCK_AFTER_500_ROWS, maxRows: 1000 },
        _meta: { progressToken: 1 },
      },
    });
    await server.next((m) => m.method === 'notifications/progress', 'progress');
    const [queryProcess] = server.children();
    assert.ok(queryProcess !== undefined);
    server.child.kill('SIGKILL');
    await server.exited;
    // The query process holds the same stderr pipe, and closes it only by ending. Left alone it would
    // count for minutes: the pipe closing within the test's time is the watchdog's kill. (Its process
    // entry may linger a moment longer, until the adoptive parent reaps it.)
    await server.stderrClosed;
  });
});

describe('next to serve fs in a host configuration', () => {
  it('mcpwire tools, call and read reach both servers', async () => {
    const config = path.join(directory, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          files: { command: process.execPath, args: [BIN, 'serve', 'fs', '--root', directory] },
          db: { command: process.execPath, args: [BIN, 'serve', 'sqlite', fixture] },
        },
      }),
    );
    const tools = await mcpwire(['tools', '--config', config]);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^files__list_directory\(/m);
    assert.match(tools.stdout, /^db__read_query\(sql: string, params\?: /m);
    const call = await mcpwire([
      'call',
      'db__read_query',
      'sql=SELECT name FROM users WHERE team_id = ? ORDER BY id',
      'params=[1]',
      '--json',
      '--config',
      config,
    ]);
    assert.equal(call.code, 0, call.stderr);
    assert.deepEqual(
      (JSON.parse(call.stdout) as { structuredContent: { rows: unknown } }).structuredContent.rows,
      [{ name: 'ada' }, { name: 'Zoë\nsecond line' }],
    );
    const refused = await mcpwire(['call', 'db__read_query', 'sql=DELETE FROM users', '--config', config]);
    assert.equal(refused.code, 1, 'the tool reported an error');
    const read = await mcpwire(['read', 'sqlite://table/teams', '--config', config, '--server', 'db']);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^table teams\n[\s\S]*1 {2}\| red\n2 {2}\| blue/);
  });
});

describe('loading', () => {
  it('better-sqlite3 is loaded only when a database is opened, not by the CLI or the module', async () => {
    // A fresh process, so that nothing else has loaded it; the built modules, as the CLI runs them.
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const loaded = () => Object.keys(require.cache).some((k) => k.includes('better-sqlite3'));
      await import(${JSON.stringify(path.join(ROOT, 'dist', 'cli', 'main.js'))});
      await import(${JSON.stringify(path.join(ROOT, 'dist', 'cli', 'commands', 'serve.js'))});
      const { createSqliteServer } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'servers', 'sqlite', 'index.js'))});
      const before = loaded();
      const sqlite = await createSqliteServer({ file: process.argv[1] });
      console.log(JSON.stringify({ before, after: loaded() }));
      sqlite.close();`;
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--input-type=module', '-e', script, fixture], (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      );
    });
    assert.deepEqual(JSON.parse(output), { before: false, after: true });
  });
});

describe('mcpwire doctor', () => {
  for (const extra of [[], ['--write']]) {
    it(`passes every check against serve sqlite ${extra.join(' ')}`.trim(), async () => {
      const file = path.join(directory, `doctor${extra.length}.db`);
      copyFileSync(fixture, file);
      const run = await mcpwire([
        'doctor',
        '--json',
        '--',
        process.execPath,
        BIN,
        'serve',
        'sqlite',
        file,
        ...extra,
      ]);
      const report = JSON.parse(run.stdout) as {
        passed: boolean;
        results: Array<{ id: string; status: string; details: string[] }>;
      };
      // The apps check is the one that may skip: serve sqlite offers no MCP Apps.
      const notPassed = report.results
        .filter((r) => r.status !== 'pass')
        .map((r) => `${r.id}: ${r.status} ${r.details.join(' ')}`);
      assert.deepEqual(
        notPassed,
        ['apps: skip the server offers no MCP Apps'],
        'every other check passes (none skipped: tools, resources and prompts are all there)',
      );
      assert.equal(report.passed, true);
      assert.equal(run.code, 0);
    });
  }
});
