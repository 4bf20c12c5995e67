// The interactive shell through a pseudo-terminal (util-linux `script`): tab completion of commands,
// tool names and argument names, and results printed as they come.

import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'mcpwire.js');
const fixture = (name: string) => path.join(root, 'test', 'fixtures', 'host', name);

interface Logged {
  type: string;
  from?: string;
  stream?: string;
  payload?: { id?: number; method?: string; params?: Record<string, unknown> };
}

/** The messages of a trace log written with --format jsonl. */
function readTrace(file: string): Logged[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Logged);
}

/** Resolves with the first match of `pattern` in what the child wrote on stderr. */
function stderrMatch(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<RegExpExecArray> {
  let text = '';
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) resolve(match);
    });
    child.once('exit', () => reject(new Error(`exited before ${pattern}: ${text}`)));
  });
}

/** Ends a process the test started and waits until it is gone. */
async function end(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}

describe('mcpwire shell', () => {
  let folder: string;
  before(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'mcpwire-shell-'));
    writeFileSync(path.join(folder, 'note.txt'), 'hi');
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  /** The pseudo-terminals of the test that runs: a failed test leaves none behind (their shells get SIGHUP). */
  const terminals = new Set<ChildProcessWithoutNullStreams>();
  afterEach(async () => {
    for (const child of terminals) {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await gone;
      }
    }
    terminals.clear();
  });

  /** The shell through a pseudo-terminal, over COMMAND; `waitFor` resolves once the screen matches. */
  function pty(command: string) {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...process.env, NO_COLOR: '1', HOME: folder, TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    terminals.add(child);
    let screen = '';
    const wakers = new Set<() => void>();
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      for (const wake of wakers) wake();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    /** Resolves once the screen, from `from` on, matches; fails if the shell exits first. */
    const waitFor = (pattern: RegExp, from = 0) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(screen.slice(from))) {
            wakers.delete(check);
            resolve();
          }
        };
        wakers.add(check);
        void exited.then(() => {
          if (wakers.has(check)) reject(new Error(`the shell exited; screen:\n${screen}`));
        });
        check();
      });
    return {
      child,
      waitFor,
      exited,
      get screen() {
        return screen;
      },
    };
  }
  it('completes tool and argument names with Tab and runs the call', { timeout: 30_000 }, async () => {
    const shell = pty(
      `${process.execPath} ${bin} shell -- ${process.execPath} ${bin} serve fs --root ${folder}`,
    );
    await shell.waitFor(/mcp> /);
    // "list_d" + Tab completes the tool, "p" + Tab the argument name.
    shell.child.stdin.write('call list_d\t');
    await shell.waitFor(/call list_directory /);
    shell.child.stdin.write('p\t');
    await shell.waitFor(/call list_directory path=/);
    shell.child.stdin.write('.\r');
    await shell.waitFor(/\[FILE\] note\.txt/);
    shell.child.stdin.write('exit\r');
    assert.equal(await shell.exited, 0);
  });

  const everything = `${process.execPath} ${bin} shell -- ${process.execPath} ${bin} serve everything`;

  it('bug: Ctrl-C did not cancel a call and left a dead prompt; it cancels it, and the prompt works', {
    timeout: 30_000,
  }, async () => {
    // Through trace, which records what reached the server: the call's notifications/cancelled.
    const log = path.join(folder, 'cancel.jsonl');
    const shell = pty(
      `${process.execPath} ${bin} shell -- ${process.execPath} ${bin} trace --format jsonl --log ${log} -- ${process.execPath} ${bin} serve everything`,
    );
    await shell.waitFor(/mcp> /);
    shell.child.stdin.write('call longRunningOperation duration=60 steps=60\r');
    await shell.waitFor(/1\/60/);
    shell.child.stdin.write('\u0003');
    await shell.waitFor(/\(cancelled\)/);
    const mark = shell.screen.length;
    shell.child.stdin.write('call echo message=again\r');
    await shell.waitFor(/Echo: again/, mark);
    shell.child.stdin.write('exit\r');
    assert.equal(await shell.exited, 0);
    const sent = readTrace(log).filter((r) => r.type === 'message' && r.from === 'client');
    const call = sent.find((r) => r.payload?.params?.name === 'longRunningOperation')?.payload;
    assert.ok(call?.id !== undefined, 'the call reached the server');
    assert.ok(
      sent.some(
        (r) =>
          r.payload?.method === 'notifications/cancelled' &&
          r.payload.params?.requestId === call.id &&
          /Ctrl-C/.test(String(r.payload.params?.reason)),
      ),
      'the server was told the call was cancelled',
    );
  });

  it('Ctrl-C cancels a call on 2026-07-28 Streamable HTTP by closing its exchange', {
    timeout: 30_000,
  }, async (t) => {
    // serve everything over HTTP, behind a recording proxy: the log shows how the call ended.
    const server = spawn(process.execPath, [bin, 'serve', 'everything', '--http', '0']);
    t.after(() => end(server));
    const url = (await stderrMatch(server, /listening on (\S+)/))[1]!;
    const log = path.join(folder, 'cancel-http.jsonl');
    const proxy = spawn(process.execPath, [
      bin,
      'trace',
      '--http',
      '0',
      '--url',
      url,
      '--format',
      'jsonl',
      '--log',
      log,
    ]);
    t.after(() => end(proxy));
    const front = (await stderrMatch(proxy, /listening on (\S+?),/))[1]!;
    const shell = pty(`${process.execPath} ${bin} shell --url ${front}`);
    await shell.waitFor(/mcp> /);
    shell.child.stdin.write('call longRunningOperation duration=60 steps=60\r');
    await shell.waitFor(/1\/60/);
    shell.child.stdin.write('\u0003');
    await shell.waitFor(/\(cancelled\)/);
    const mark = shell.screen.length;
    shell.child.stdin.write('call echo message=again\r');
    await shell.waitFor(/Echo: again/, mark);
    shell.child.stdin.write('exit\r');
    assert.equal(await shell.exited, 0);
    await end(proxy);
    const records = readTrace(log);
    const call = records.find(
      (r) => r.from === 'client' && r.payload?.params?.name === 'longRunningOperation',
    );
    assert.equal(
      (call?.payload?.params?._meta as Record<string, unknown> | undefined)?.[
        'io.modelcontextprotocol/protocolVersion'
      ],
      '2026-07-28',
    );
    // Its exchange ended (within the test's time, where the operation takes a minute), with no answer to
    // it and no notifications/cancelled, which 2026-07-28 has no use for: closing it is the cancellation.
    assert.ok(records.some((r) => r.type === 'http' && r.stream === call?.stream));
    assert.ok(!records.some((r) => r.from === 'server' && r.payload?.id === call?.payload?.id));
    assert.ok(!records.some((r) => r.payload?.method === 'notifications/cancelled'));
  });

  it('bug: Ctrl-C on a half-typed line quit the shell; it clears the line, and Ctrl-D quits', {
    timeout: 30_000,
  }, async () => {
    const shell = pty(everything);
    await shell.waitFor(/mcp> /);
    shell.child.stdin.write('call ech');
    await shell.waitFor(/call ech/);
    shell.child.stdin.write('\u0003');
    const mark = shell.screen.length;
    // The cleared line is gone: what is typed next is a command of its own.
    shell.child.stdin.write('call echo message=fresh\r');
    await shell.waitFor(/Echo: fresh/, mark);
    shell.child.stdin.write('\u0004');
    assert.equal(await shell.exited, 0);
  });

  it('bug: call TOOL {"json": "args"} lost its quotes and named --args; it is sent as typed', {
    timeout: 30_000,
  }, async () => {
    const shell = pty(everything);
    await shell.waitFor(/mcp> /);
    shell.child.stdin.write('call echo {"message": "hi there"}\r');
    await shell.waitFor(/Echo: hi there/);
    shell.child.stdin.write('call echo {"message": \r');
    await shell.waitFor(/the arguments are not valid JSON[\s\S]*hint: .*call echo \{"key": "value"\}/);
    assert.doesNotMatch(shell.screen, /--args/);
    shell.child.stdin.write('exit\r');
    assert.equal(await shell.exited, 0);
  });

  it('bug: after a server crashed the shell could not bring it back; it says so and restart does', {
    timeout: 30_000,
  }, async () => {
    const crashy = path.join(root, 'test', 'fixtures', 'host', 'crashy-server.mjs');
    const shell = pty(`${process.execPath} ${bin} shell -- ${process.execPath} ${crashy}`);
    await shell.waitFor(/mcp> /);
    shell.child.stdin.write('call crash\r');
    // The exit code and the tail of its stderr.
    await shell.waitFor(/crashed: .*exited with code 7.*about to crash[\s\S]*Type "restart crashy-server"/s);
    // Said once: the call's own error does not repeat it, nor send the person to --verbose for it.
    await shell.waitFor(/\(the call ended: its server crashed\)/);
    assert.doesNotMatch(shell.screen, /--verbose/);
    shell.child.stdin.write('restart\r');
    await shell.waitFor(/crashy-server ready/);
    const mark = shell.screen.length;
    shell.child.stdin.write('call hello\r');
    await shell.waitFor(/hello from \d+/, mark);
    shell.child.stdin.write('exit\r');
    assert.equal(await shell.exited, 0);
  });

  /** The shell fed from a pipe: its stdout, stderr and exit code. */
  function piped(args: string[], input: string) {
    const child = spawn(process.execPath, [bin, 'shell', ...args], {
      env: { ...process.env, NO_COLOR: '1', HOME: folder },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.stdin.end(input);
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('close', (code) => resolve({ code, stdout, stderr })),
    );
  }
  const serveEverything = ['--', process.execPath, bin, 'serve', 'everything'];

  it('bug: --json was ignored; with it every command prints one JSON document on stdout, and nothing else', {
    timeout: 30_000,
  }, async () => {
    const run = await piped(['--json', ...serveEverything], 'servers\ntools\ncall echo message=hi\nexit\n');
    assert.equal(run.code, 0, run.stderr);
    // Pretty-printed documents, one after the other: each starts at the beginning of a line.
    const documents = run.stdout
      .trim()
      .split(/\n(?=[[{])/)
      .map((text) => JSON.parse(text) as unknown);
    assert.equal(documents.length, 3);
    const [servers, tools, result] = documents as [
      Array<{ name: string; state: string }>,
      Array<{ name: string }>,
      { content: Array<{ text: string }> },
    ];
    assert.equal(servers[0]?.state, 'ready');
    assert.ok(tools.some((tool) => tool.name === 'echo'));
    assert.equal(result.content[0]?.text, 'Echo: hi');
    assert.match(run.stderr, /mcpwire shell: /);
  });

  it("bug: a piped session exited 0 after failures; it exits with the first failed command's code", {
    timeout: 30_000,
  }, async () => {
    const usage = await piped(
      serveEverything,
      'call echo message=hi\ncall no_such_tool\ncall test_error_handling\n',
    );
    assert.equal(usage.code, 2, 'an unknown tool is a usage error, as in mcpwire call');
    assert.match(usage.stdout, /Echo: hi/);
    // Every failure is reported, the later ones too.
    assert.match(usage.stderr, /there is no tool "no_such_tool"/);
    assert.match(usage.stdout, /intentionally returns an error/);
    const toolError = await piped(serveEverything, 'call test_error_handling\ncall no_such_tool\n');
    assert.equal(toolError.code, 1, 'a tool that reported an error');
    assert.match(toolError.stderr, /there is no tool "no_such_tool"/);
    // No prompts from a pipe: the output is only what the commands print.
    assert.doesNotMatch(toolError.stdout, /mcp> /);
    const fine = await piped(serveEverything, 'call echo message=hi\n');
    assert.equal(fine.code, 0, fine.stderr);
  });

  it('bug: elicitation and sampling got "-32021 needs the client capability"; the shell asks its person', {
    timeout: 30_000,
  }, async () => {
    const shell = pty(everything);
    await shell.waitFor(/mcp> /);
    shell.child.stdin.write('call test_elicitation message=Who?\r');
    await shell.waitFor(/Fill in the form\?/);
    shell.child.stdin.write('y\r');
    await shell.waitFor(/username .*: /);
    shell.child.stdin.write('ada\r');
    await shell.waitFor(/email .*: /);
    shell.child.stdin.write('ada@example.com\r');
    await shell.waitFor(/action=accept, content=\{"username":"ada","email":"ada@example.com"\}/);
    let mark = shell.screen.length;
    shell.child.stdin.write('call test_sampling prompt=hello\r');
    await shell.waitFor(/Your answer .*: /, mark);
    shell.child.stdin.write('Hi there\r');
    await shell.waitFor(/LLM response: Hi there/, mark);
    mark = shell.screen.length;
    // Ctrl-C at a question gives it up, and the prompt works again.
    shell.child.stdin.write('call test_elicitation message=Again\r');
    await shell.waitFor(/Fill in the form\?/, mark);
    shell.child.stdin.write('\u0003');
    const after = shell.screen.length;
    shell.child.stdin.write('call echo message=back\r');
    await shell.waitFor(/Echo: back/, after);
    assert.doesNotMatch(shell.screen, /-32021/);
    shell.child.stdin.write('exit\r');
    assert.equal(await shell.exited, 0);
  });

  it('bug: a message arriving while a line was half-typed erased it; the line is drawn again below it', {
    timeout: 30_000,
  }, async () => {
    // The server is killed from outside while a line is half-typed: the crash notice arrives at a moment
    // the test chooses, as a log line would, and goes through the same path.
    const crashy = path.join(root, 'test', 'fixtures', 'host', 'crashy-server.mjs');
    const shell = pty(`${process.execPath} ${bin} shell -- ${process.execPath} ${crashy}`);
    await shell.waitFor(/mcp> /);
    shell.child.stdin.write('call hello\r');
    await shell.waitFor(/hello from \d+/);
    const pid = Number(/hello from (\d+)/.exec(shell.screen)?.[1]);
    await shell.waitFor(/mcp> [^\n]*$/);
    shell.child.stdin.write('call hel');
    await shell.waitFor(/call hel$/);
    process.kill(pid, 'SIGKILL');
    await shell.waitFor(/crashed: [\s\S]*Type "restart/);
    const notice = shell.screen.lastIndexOf('Type "restart');
    await shell.waitFor(new RegExp(`mcp> (${String.fromCharCode(27)}\\[\\d+G)?call hel`), notice);
    // Ctrl-D ends the shell only on an empty line (on a typed one it deletes forward): clear it first.
    shell.child.stdin.write('\u0015\u0004');
    assert.equal(await shell.exited, 0);
  });

  it('bug: a log line at a half-typed prompt erased the line; it is printed above, and the line drawn again', {
    timeout: 30_000,
  }, async () => {
    // A server that logs when the test signals it, outside any request, as servers that log on a timer do.
    const shell = pty(
      `${process.execPath} ${bin} shell -- ${process.execPath} ${fixture('logs-on-signal.mjs')}`,
    );
    await shell.waitFor(/mcp> /);
    shell.child.stdin.write('call hello\r');
    await shell.waitFor(/hello from \d+/);
    const pid = Number(/hello from (\d+)/.exec(shell.screen)?.[1]);
    await shell.waitFor(/mcp> [^\n]*$/);
    shell.child.stdin.write('call hel');
    await shell.waitFor(/call hel$/);
    const mark = shell.screen.length;
    process.kill(pid, 'SIGUSR1');
    await shell.waitFor(/\[logs-on-signal warning\] tick 1/, mark);
    const logged = shell.screen.indexOf('tick 1', mark);
    await shell.waitFor(new RegExp(`mcp> (${String.fromCharCode(27)}\\[\\d+G)?call hel`), logged);
    // The line goes on where it was: finishing it runs the whole command.
    const typed = shell.screen.length;
    shell.child.stdin.write('lo\r');
    await shell.waitFor(/hello from \d+/, typed);
    shell.child.stdin.write('exit\r');
    assert.equal(await shell.exited, 0);
  });

  it('shows a URL elicitation as a link to open, and a sampling request to answer or decline', {
    timeout: 30_000,
  }, async () => {
    const shell = pty(
      `${process.execPath} ${bin} shell -- ${process.execPath} ${fixture('asks-person.mjs')}`,
    );
    await shell.waitFor(/mcp> /);
    shell.child.stdin.write('call open_link\r');
    await shell.waitFor(/Open this link to go on: https:\/\/example\.com\/connect\?session=42/);
    await shell.waitFor(/\[Y\]es \/ \[n\]o \(decline\) \/ \[c\]ancel: /);
    shell.child.stdin.write('n\r');
    await shell.waitFor(/link: decline/);
    let mark = shell.screen.length;
    shell.child.stdin.write('call ask_model\r');
    await shell.waitFor(/user: What is 6 times 7\?/, mark);
    await shell.waitFor(/Your answer .*: /, mark);
    shell.child.stdin.write('42\r');
    await shell.waitFor(/model said: 42/, mark);
    mark = shell.screen.length;
    // An empty answer declines: the call ends, the shell says so, and the prompt works.
    shell.child.stdin.write('call ask_model\r');
    await shell.waitFor(/Your answer .*: /, mark);
    shell.child.stdin.write('\r');
    await shell.waitFor(/\(declined: the call ended without an answer\)/, mark);
    mark = shell.screen.length;
    shell.child.stdin.write('call open_link\r');
    await shell.waitFor(/\[c\]ancel: /, mark);
    shell.child.stdin.write('y\r');
    await shell.waitFor(/link: accept/, mark);
    shell.child.stdin.write('exit\r');
    assert.equal(await shell.exited, 0);
  });
});
