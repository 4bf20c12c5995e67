// What a new user met in the first hour of mcpwire's command line (issue "a command line a person lives
// in"), each driven through the real binary: a reader that stops early, a trace log that cannot be
// written, and help text that spoke of a document the user cannot know.

import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runWithStdoutClosed } from '../support/run-cli.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'mcpwire.js');

function mcpwire(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: root, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * Whether a process has ended (a zombie waiting to be reaped counts), polled for a few seconds: a child
 * killed with its group is reaped by init, not by anyone the test can wait on.
 */
async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 5000;
  for (;;) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return true;
    }
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the command line in the first hour', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'mcpwire-first-hour-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('bug: output piped into a reader that stops early ended in an EPIPE stack trace; it stops quietly', async () => {
    const { code, stderr } = await runWithStdoutClosed([bin, '--help']);
    assert.equal(stderr, '', 'nothing on stderr: no stack trace, no "Error: write EPIPE"');
    assert.equal(code, 0);
  });

  it('bug: a reader of stderr that stopped early (2>&1 | head) ended call with exit 1 and no result; it goes on', async () => {
    const child = spawn(
      process.execPath,
      [bin, 'call', 'test_tool_with_progress', '--', process.execPath, bin, 'serve', 'everything'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // The first progress line goes to stderr; its reader is gone after it.
    child.stderr.once('data', () => child.stderr.destroy());
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
    assert.match(stdout, /Tool with progress executed successfully/);
  });

  it('bug: trace --log in a folder that does not exist died with a stack trace; one line, exit 2, nothing spawned', async () => {
    const marker = path.join(scratch, 'spawned');
    const log = path.join(scratch, 'no-such-dir', 'x.trace');
    const run = await mcpwire([
      'trace',
      '--log',
      log,
      '--',
      process.execPath,
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`,
    ]);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^mcpwire trace: cannot write the trace log .*x\.trace: its folder does not exist\n/,
    );
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(existsSync(marker), false, 'the server was not started');
  });

  it('help and the demo say what the demo shows, not "the seed"', async () => {
    const help = await mcpwire(['--help']);
    const demo = await mcpwire(['demo', '--help']);
    for (const text of [help.stdout, demo.stdout]) assert.doesNotMatch(text, /seed/i);
    assert.match(help.stdout, /demo\s+a typical exchange between a host and a filesystem server/);
  });

  it('bug: --timeout did not apply to the handshake (initialize always waited 30 s); it does', async () => {
    // A server that reads nothing and answers nothing.
    const silent = [process.execPath, '-e', 'setInterval(() => {}, 1000)'];
    const run = await mcpwire(['tools', '--timeout', '300', '--', ...silent]);
    assert.equal(run.code, 3);
    assert.match(run.stderr, /"initialize" \(id \d+\) timed out after 300 ms/);
    assert.match(run.stderr, /hint: Raise --timeout \(in ms; it was 300\)/);
    assert.doesNotMatch(run.stderr, /"timeout" option/, "the library's option is not the CLI's flag");
    // A handshake timeout of its own: the long --timeout does not keep the handshake waiting.
    const own = await mcpwire([
      'tools',
      '--timeout',
      '600000',
      '--handshake-timeout',
      '300',
      '--',
      ...silent,
    ]);
    assert.equal(own.code, 3);
    assert.match(own.stderr, /"initialize" \(id \d+\) timed out after 300 ms/);
    assert.match(own.stderr, /hint: Raise --handshake-timeout \(in ms; it was 300\)/);
    // A request after the handshake: --timeout, named as the flag to raise.
    const stubborn = path.join(root, 'test', 'fixtures', 'client', 'stubborn-server.mjs');
    const call = await mcpwire(['call', 'wait', '--timeout', '300', '--', process.execPath, stubborn]);
    assert.equal(call.code, 3);
    assert.match(
      call.stderr,
      /^mcpwire: "tools\/call" \(id \d+\) timed out after 300 ms without a response/m,
    );
    assert.match(call.stderr, /hint: Raise --timeout \(in ms; it was 300\)/);
    assert.doesNotMatch(call.stderr, /"timeout" option/);
    const bad = await mcpwire(['tools', '--handshake-timeout', 'soon', '--', ...silent]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--handshake-timeout takes milliseconds/);
  });

  it('bug: with several servers, a tool only one of them has was "no tool"; it is called, or the choice named', async () => {
    const fs = (name: string) => ({
      command: process.execPath,
      args: [bin, 'serve', 'fs', '--root', scratch],
      name,
    });
    const mixed = path.join(scratch, 'mixed.json');
    writeFileSync(
      mixed,
      JSON.stringify({
        mcpServers: {
          files: fs('files'),
          demo: { command: process.execPath, args: [bin, 'serve', 'everything'] },
        },
      }),
    );
    const called = await mcpwire(['call', 'list_directory', 'path=.', '--config', mixed]);
    assert.equal(called.code, 0, called.stderr);
    const twice = path.join(scratch, 'twice.json');
    writeFileSync(twice, JSON.stringify({ mcpServers: { a: fs('a'), b: fs('b') } }));
    const ambiguous = await mcpwire(['call', 'list_directory', 'path=.', '--config', twice]);
    assert.equal(ambiguous.code, 2);
    assert.match(ambiguous.stderr, /"list_directory" is a tool of several servers: a, b/);
    assert.match(ambiguous.stderr, /Name one: a__list_directory, b__list_directory/);
  });

  it('bug: with several servers, a prompt only one of them has was "no prompt"; it is got, or the choice named', async () => {
    const everything = { command: process.execPath, args: [bin, 'serve', 'everything'] };
    const files = { command: process.execPath, args: [bin, 'serve', 'fs', '--root', scratch] };
    const mixed = path.join(scratch, 'mixed-prompts.json');
    writeFileSync(mixed, JSON.stringify({ mcpServers: { files, demo: everything } }));
    const got = await mcpwire(['get-prompt', 'test_simple_prompt', '--config', mixed]);
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout, /This is a simple prompt for testing/);
    const twice = path.join(scratch, 'twice-prompts.json');
    writeFileSync(twice, JSON.stringify({ mcpServers: { a: everything, b: everything } }));
    const ambiguous = await mcpwire(['get-prompt', 'test_simple_prompt', '--config', twice]);
    assert.equal(ambiguous.code, 2);
    assert.match(ambiguous.stderr, /"test_simple_prompt" is a prompt of several servers: a, b/);
    assert.match(ambiguous.stderr, /Name one: a__test_simple_prompt, b__test_simple_prompt/);
    const named = await mcpwire(['get-prompt', 'b__test_simple_prompt', '--config', twice]);
    assert.equal(named.code, 0, named.stderr);
  });

  it('bug: call write_file on a read-only serve fs said only "there is no tool"; it names --write', async () => {
    const run = await mcpwire([
      'call',
      'write_file',
      'path=x',
      'content=y',
      '--',
      process.execPath,
      bin,
      'serve',
      'fs',
      '--root',
      scratch,
    ]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /there is no tool "write_file"/);
    assert.match(run.stderr, /offered when the filesystem server runs with --write/);
    assert.equal(existsSync(path.join(scratch, 'x')), false);
  });

  it('bug: get-prompt had no --args and sent arguments the prompt does not declare; it has, and refuses them', async () => {
    const everything = ['--', process.execPath, bin, 'serve', 'everything'];
    const viaJson = await mcpwire([
      'get-prompt',
      'test_prompt_with_arguments',
      '--args',
      '{"arg1":"x","arg2":"y"}',
      ...everything,
    ]);
    assert.equal(viaJson.code, 0, viaJson.stderr);
    assert.match(viaJson.stdout, /arg1='x', arg2='y'/);
    const file = path.join(scratch, 'prompt-args.json');
    writeFileSync(file, JSON.stringify({ arg1: 'from', arg2: 'a file' }));
    const viaFile = await mcpwire([
      'get-prompt',
      'test_prompt_with_arguments',
      '--args',
      `@${file}`,
      ...everything,
    ]);
    assert.equal(viaFile.code, 0, viaFile.stderr);
    assert.match(viaFile.stdout, /arg1='from', arg2='a file'/);
    const undeclared = await mcpwire([
      'get-prompt',
      'test_prompt_with_arguments',
      'arg1=a',
      'arg2=b',
      'bogus=1',
      ...everything,
    ]);
    assert.equal(undeclared.code, 2);
    assert.match(undeclared.stderr, /has no argument "bogus"/);
    assert.match(undeclared.stderr, /Its arguments: arg1, arg2/);
    const missing = await mcpwire(['get-prompt', 'test_prompt_with_arguments', 'arg1=a', ...everything]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /needs arg2=\.\.\./);
  });

  it('bug: bare "mcpwire call" asked which server before which tool; it asks for the tool first', async () => {
    for (const [command, what] of [
      ['call', 'tool'],
      ['get-prompt', 'prompt'],
    ] as const) {
      const run = await mcpwire([command]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, new RegExp(`^mcpwire ${command}: which ${what}\\?`));
    }
  });

  it('bug: $ref was not followed (tools showed any) and a JSON object argument was sent as a string', async () => {
    const everything = ['--', process.execPath, bin, 'serve', 'everything'];
    const tools = await mcpwire(['tools', ...everything]);
    assert.match(
      tools.stdout,
      /json_schema_2020_12_tool\(name\?: string, address\?: object, contactMethod\?: string/,
    );
    const called = await mcpwire([
      'call',
      'json_schema_2020_12_tool',
      'address={"street":"x"}',
      'email=a@example.org',
      ...everything,
    ]);
    assert.equal(called.code, 0, called.stderr);
    assert.match(called.stdout, /called with: \{"address":\{"street":"x"\},"email":"a@example\.org"\}/);
  });

  it('large arguments have a route: --args @FILE and --args - (standard input)', async () => {
    const file = path.join(scratch, 'args.json');
    writeFileSync(file, JSON.stringify({ name: 'from a file', email: 'a@example.org' }));
    const everything = ['--', process.execPath, bin, 'serve', 'everything'];
    const fromFile = await mcpwire(['call', 'json_schema_2020_12_tool', '--args', `@${file}`, ...everything]);
    assert.match(fromFile.stdout, /"name":"from a file"/);
    const fromStdin = await new Promise<string>((resolve) => {
      const child = execFile(
        process.execPath,
        [bin, 'call', 'json_schema_2020_12_tool', '--args', '-', ...everything],
        (_e, stdout) => resolve(stdout),
      );
      child.stdin?.end(JSON.stringify({ name: 'from stdin', email: 'a@example.org' }));
    });
    assert.match(fromStdin, /"name":"from stdin"/);
    const missing = await mcpwire([
      'call',
      'json_schema_2020_12_tool',
      '--args',
      '@/no/such/file.json',
      ...everything,
    ]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read \/no\/such\/file\.json: ENOENT/);
  });

  it('bug: logs were never shown (mcpwire servers were not even asked); stderr shows them, --quiet and --log-level choose', async () => {
    const fs = ['--', process.execPath, bin, 'serve', 'fs', '--root', scratch];
    const shown = await mcpwire(['call', 'list_directory', 'path=.', ...fs]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stderr, /\[\S+ info\] Scanning local folder /);
    const quiet = await mcpwire(['call', 'list_directory', 'path=.', '--quiet', ...fs]);
    assert.doesNotMatch(quiet.stderr, /Scanning/);
    const above = await mcpwire(['call', 'list_directory', 'path=.', '--log-level', 'warning', ...fs]);
    assert.doesNotMatch(above.stderr, /Scanning/, 'an info message is below warning');
    const bad = await mcpwire(['call', 'list_directory', '--log-level', 'loud', ...fs]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /--log-level is one of debug, info, notice, warning, error, critical, alert, emergency, not "loud"/,
    );
  });

  it('bug: progress printed as "progress 50/100 ..." in call and as a bare bar in the shell; one format', async () => {
    const run = await mcpwire([
      'call',
      'test_tool_with_progress',
      '--',
      process.execPath,
      bin,
      'serve',
      'everything',
    ]);
    assert.equal(run.code, 0, run.stderr);
    // Not a terminal here: one plain line per update, no bar.
    assert.match(
      run.stderr,
      /^0\/100 \(0%\) Completed step 0 of 100\n50\/100 \(50%\) Completed step 50 of 100\n/m,
    );
    assert.doesNotMatch(run.stderr, /^progress /m);
    // On a terminal (a pseudo-terminal from util-linux `script`): the same words behind a bar, redrawn
    // in place, and cleared before the result.
    const tty = await new Promise<string>((resolve) => {
      const command = [
        process.execPath,
        bin,
        'call',
        'test_tool_with_progress',
        '--',
        process.execPath,
        bin,
        'serve',
        'everything',
      ].join(' ');
      execFile('script', ['-qfec', command, '/dev/null'], { cwd: root }, (_error, stdout) => resolve(stdout));
    });
    // The bar is redrawn in place: carriage return, erase the line (ESC [2K), then the bar.
    const redraw = '\r\u001b[2K';
    assert.ok(
      tty.includes(`${redraw}[${'#'.repeat(12)}${' '.repeat(12)}] 50/100 (50%) Completed step 50 of 100`),
      tty,
    );
    assert.ok(tty.includes(`${redraw}Tool with progress executed successfully`), tty);
  });

  it('bug: call listed every tool, prompt and resource and opened subscriptions/listen; it costs the handshake, the tool list and the call', async () => {
    // mcpwire's fs server over a root of many files (2026-07-28), and the reference filesystem server,
    // which speaks only the handshake era.
    const servers = [
      { name: 'mcpwire', command: [process.execPath, bin, 'serve', 'fs', '--root', root] },
      {
        name: 'reference',
        command: [path.join(root, 'node_modules', '.bin', 'mcp-server-filesystem'), root],
      },
    ];
    for (const { name, command: server } of servers) {
      const log = path.join(scratch, `call-${name}.jsonl`);
      const tool = 'list_allowed_directories';
      const run = await mcpwire([
        'call',
        tool,
        '--',
        process.execPath,
        bin,
        'trace',
        '--format',
        'jsonl',
        '--log',
        log,
        '--',
        ...server,
      ]);
      assert.equal(run.code, 0, run.stderr);
      const sent = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { type: string; from?: string; payload?: { method?: string } })
        .filter((r) => r.type === 'message' && r.from === 'client' && r.payload?.method !== undefined)
        .map((r) => r.payload!.method!);
      const allowed = [
        'server/discover',
        'initialize',
        'notifications/initialized',
        'logging/setLevel',
        'tools/list',
        'tools/call',
      ];
      assert.deepEqual(
        sent.filter((m) => !allowed.includes(m)),
        [],
        `sent: ${sent.join(', ')}`,
      );
      assert.equal(sent.filter((m) => m === 'tools/call').length, 1);
      assert.equal(sent.filter((m) => m === 'tools/list').length, 1);
      if (name === 'mcpwire') {
        // 2026-07-28: no logging/setLevel; the level the command asks for goes with each request.
        assert.match(
          readFileSync(log, 'utf8'),
          /"method":"tools\/call","params":\{.*"io\.modelcontextprotocol\/logLevel":"info"/,
        );
      }
    }
  });

  it('bug: a line of the server that is not JSON-RPC was found out only when the call timed out; it is shown at once', async () => {
    const server = path.join(root, 'test', 'fixtures', 'broken', 'cuts-a-call-short.mjs');
    // A timeout far longer than the test: the line must be shown while the call still waits.
    const child = spawn(
      process.execPath,
      [bin, 'call', 'echo', 'text=hi', '--timeout', '600000', '--', process.execPath, server],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
        if (stderr.includes('not JSON-RPC')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code} before saying so: ${stderr}`)));
    });
    child.kill('SIGTERM');
    assert.match(
      stderr,
      /^mcpwire: the server wrote something that is not JSON-RPC to stdout: "\{\\"jsonrpc\\":\\"2\.0\\",\\"id\\":/m,
    );
  });

  it('bug: replay, gateway and proxy said nothing of a server line that is not JSON-RPC; they say it at once', async () => {
    const broken = path.join(root, 'test', 'fixtures', 'broken');
    const log = path.join(scratch, 'echo.jsonl');
    const recorded = await mcpwire([
      'call',
      'echo',
      'text=hi',
      '--',
      process.execPath,
      bin,
      'trace',
      '--format',
      'jsonl',
      '--log',
      log,
      '--',
      process.execPath,
      path.join(broken, 'correct.mjs'),
    ]);
    assert.equal(recorded.code, 0, recorded.stderr);
    const config = path.join(scratch, 'noisy.json');
    const noisy = [process.execPath, path.join(broken, 'prints-on-stdout.mjs')];
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { noisy: { command: noisy[0], args: noisy.slice(1) } } }),
    );
    const cutShort = [process.execPath, path.join(broken, 'cuts-a-call-short.mjs')];
    const runs: Array<[string[], RegExp]> = [
      // The answer to the call is cut short: said while replay still waits for it (a long --timeout).
      [
        ['replay', log, '--timeout', '600000', '--', ...cutShort],
        /^mcpwire: the server wrote something that is not JSON-RPC to stdout: "\{\\"jsonrpc\\"/m,
      ],
      [
        ['gateway', config],
        /^mcpwire: server "noisy" wrote something that is not JSON-RPC to stdout: "debug: wrote a message"/m,
      ],
      [
        ['proxy', '--http', '0', '--', ...noisy],
        /^mcpwire: the server wrote something that is not JSON-RPC to stdout: "debug: wrote a message"/m,
      ],
    ];
    for (const [args, said] of runs) {
      const child = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      try {
        await new Promise<void>((resolve, reject) => {
          child.stderr.setEncoding('utf8').on('data', (text: string) => {
            stderr += text;
            if (said.test(stderr)) resolve();
          });
          child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code} first: ${stderr}`)));
        });
      } finally {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`bug: ${signal} to the command line left a stubborn server running; it cancels the call and ends the server and its child`, async () => {
      // The server and a child of its own ignore SIGTERM, SIGHUP and the end of stdin.
      const server = path.join(root, 'test', 'fixtures', 'processes', 'stubborn-tree-server.mjs');
      const child = spawn(
        process.execPath,
        [bin, 'call', 'wait', '--verbose', '--', process.execPath, server],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        child.stderr.setEncoding('utf8').on('data', (text: string) => {
          stderr += text;
          if (stderr.includes('got tools/call')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });
      const pid = Number(/\bpid (\d+)/.exec(stderr)?.[1]);
      const grandchild = Number(/\bchild (\d+)/.exec(stderr)?.[1]);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill(signal);
      try {
        assert.equal(await exited, 128 + constants.signals[signal]);
        assert.match(
          stderr,
          /got notifications\/cancelled/,
          'the call was cancelled before the server was ended',
        );
        assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the server is gone');
        assert.equal(await gone(grandchild), true, "the server's child is gone");
      } finally {
        for (const p of [pid, grandchild]) {
          try {
            process.kill(p, 'SIGKILL');
          } catch {
            // Gone, as it should be.
          }
        }
      }
    });
  }

  it('bug: doctor against a server that cannot start gave 27 failures with unrelated fixes; it says so once', async () => {
    const missing = await mcpwire(['doctor', '--', 'mcpwire-no-such-command-here']);
    assert.equal(missing.code, 3);
    assert.equal(missing.stdout, '');
    assert.match(
      missing.stderr,
      /^mcpwire: cannot start "mcpwire-no-such-command-here": no such command\nhint: /,
    );
    const dies = await mcpwire([
      'doctor',
      '--',
      process.execPath,
      '-e',
      'console.error("no config"); process.exit(4)',
    ]);
    assert.equal(dies.code, 3);
    assert.match(
      dies.stderr,
      /exited before it wrote anything to stdout \(exit code 4\); its stderr ends: no config/,
    );
  });

  it('bug: doctor printed nothing until every check was done; each result shows as it finishes', async () => {
    // The stubborn server never answers tools/call: the checks that call a tool wait for the (long)
    // timeout, and the results before them must be on the screen meanwhile.
    const server = path.join(root, 'test', 'fixtures', 'client', 'stubborn-server.mjs');
    const child = spawn(
      process.execPath,
      [bin, 'doctor', '--timeout', '600000', '--', process.execPath, server],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        if (/^(PASS|FAIL|WARN|SKIP) {2}\S+/m.test(stdout)) resolve();
      });
      child.once('exit', (code) =>
        reject(new Error(`doctor ended (${code}) before showing a result: ${stdout}`)),
      );
    });
    assert.equal(exited, false, 'a result was shown while checks were still running');
    const ended = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await ended, 143);
  });

  it('doctor on a terminal: a progress line while checks run, each result printed over it as it finishes', async () => {
    const command = [
      process.execPath,
      bin,
      'doctor',
      '--only',
      'handshake,ping,unknown-method',
      '--',
      process.execPath,
      bin,
      'serve',
      'everything',
    ].join(' ');
    const tty = await new Promise<string>((resolve) => {
      execFile(
        'script',
        ['-qfec', command, '/dev/null'],
        { cwd: root, env: { ...process.env, NO_COLOR: '1' } },
        (_error, stdout) => resolve(stdout),
      );
    });
    // The progress line is cleared (\r, erase line) before each result, and counts the checks done.
    // The progress line, erased before a result is printed over it. Two checks run at a time, so which
    // one ends first may vary; the report keeps the order of the checks.
    const redraw = '\r\u001b[2K';
    assert.ok(
      [0, 1, 2].some((n) =>
        ['handshake', 'ping'].some((id) => tty.includes(`checking… ${n}/3${redraw}PASS  ${id} `)),
      ),
      tty,
    );
    const order = ['handshake', 'ping', 'unknown-method'].map((id) => tty.indexOf(`PASS  ${id} `));
    assert.ok(order[0]! >= 0 && order[0]! < order[1]! && order[1]! < order[2]!, tty);
    assert.match(tty, /3 passed, 0 failed/);
  });

  it('bug: trace passed SIGTERM on and never escalated, so a server that ignored it kept trace alive', async () => {
    const server = path.join(root, 'test', 'fixtures', 'client', 'stubborn-server.mjs');
    const log = path.join(scratch, 'stubborn.trace');
    const child = spawn(process.execPath, [bin, 'trace', '--log', log, '--', process.execPath, server], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
        if (/pid \d+/.test(stderr)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`trace exited (${code}): ${stderr}`)));
    });
    const pid = Number(/pid (\d+)/.exec(stderr)?.[1]);
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    child.kill('SIGTERM');
    // The server ignored SIGTERM, so it was killed: trace exits with 128 + 9.
    assert.equal(await exited, 128 + constants.signals.SIGKILL);
    assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the server is gone');
  });

  it('human output shows no wire fields (resultType, _meta, ttlMs, cacheScope); --json keeps them', async () => {
    const server = ['--', process.execPath, bin, 'serve', 'everything'];
    const commands = [
      ['tools'],
      ['resources'],
      ['prompts'],
      ['read', 'test://static-text'],
      ['get-prompt', 'test_simple_prompt'],
      ['call', 'test_simple_text'],
    ];
    for (const command of commands) {
      const run = await mcpwire([...command, ...server]);
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(
        run.stdout,
        /resultType|_meta|ttlMs|cacheScope|io\.modelcontextprotocol/,
        command.join(' '),
      );
    }
    const json = await mcpwire(['call', 'test_simple_text', '--json', ...server]);
    assert.match(json.stdout, /"resultType": "complete"/);
  });
});
