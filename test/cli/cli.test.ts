// The command line as a person and a script use it: output, --json, and exit codes
// (0 ok, 1 the tool reported an error, 2 usage error, 3 the server failed).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'mcpwire.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function mcpwire(args: string[], cwd = root): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('mcpwire CLI', () => {
  let folder: string;
  let fs: string[];

  before(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'mcpwire-cli-'));
    mkdirSync(path.join(folder, 'docs'));
    writeFileSync(path.join(folder, 'docs', 'note.txt'), 'hello note\n');
    fs = ['--', process.execPath, bin, 'serve', 'fs', '--root', folder];
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it('--help lists the commands and --version prints the package version', async () => {
    const help = await mcpwire(['--help']);
    assert.equal(help.code, 0);
    for (const command of ['serve', 'tools', 'call', 'read', 'shell', 'trace', 'doctor', 'demo', 'inspect']) {
      assert.match(help.stdout, new RegExp(`^  ${command} `, 'm'));
    }
    const version = await mcpwire(['--version']);
    assert.equal(version.code, 0);
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    assert.equal(version.stdout.trim(), pkg.version);
  });

  it('every serve kind takes --request-state-key, with --http only', async () => {
    const db = path.join(folder, 'keys.db');
    for (const kind of [['fs', '--root', folder], ['sqlite', db, '--create'], ['everything']]) {
      const short = await mcpwire(['serve', ...kind, '--http', '0', '--request-state-key', 'short']);
      assert.equal(short.code, 2, short.stderr);
      assert.match(short.stderr, /--request-state-key needs at least 16 characters/);
      const stdio = await mcpwire(['serve', ...kind, '--request-state-key', 'a long enough shared secret']);
      assert.equal(stdio.code, 2, stdio.stderr);
      assert.match(stdio.stderr, /--request-state-key goes with --http PORT/);
    }
  });

  it('an unknown command is a usage error that names it', async () => {
    const run = await mcpwire(['frobnicate']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unknown command "frobnicate"/);
    assert.equal(run.stdout, '');
  });

  it('tools lists each tool with its arguments, and --json is machine-readable', async () => {
    const human = await mcpwire(['tools', ...fs]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^list_directory\(path: string\)$/m);
    const json = await mcpwire(['tools', '--json', ...fs]);
    const tools = JSON.parse(json.stdout) as Array<{ name: string; inputSchema: object }>;
    assert.ok(tools.some((t) => t.name === 'read_text_file' && typeof t.inputSchema === 'object'));
  });

  it('call converts key=value pairs to the schema types and prints the result', async () => {
    const run = await mcpwire(['call', 'read_text_file', 'path=docs/note.txt', 'head=1', ...fs]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'hello note\n');
    const json = await mcpwire(['call', 'list_directory', '--args', '{"path": "docs"}', '--json', ...fs]);
    assert.deepEqual(JSON.parse(json.stdout).structuredContent, {
      entries: [{ name: 'note.txt', type: 'file' }],
    });
  });

  it('a tool that reports an error exits 1', async () => {
    const run = await mcpwire(['call', 'read_text_file', 'path=missing.txt', ...fs]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /No such file or directory: missing\.txt/);
  });

  it('arguments that do not fit the schema are usage errors with a hint', async () => {
    const unknownKey = await mcpwire(['call', 'read_text_file', 'pth=x', ...fs]);
    assert.equal(unknownKey.code, 2);
    assert.match(unknownKey.stderr, /tool "read_text_file" has no argument "pth"/);
    assert.match(unknownKey.stderr, /hint: Its arguments: path, head, tail/);
    const badNumber = await mcpwire(['call', 'read_text_file', 'path=docs/note.txt', 'head=many', ...fs]);
    assert.equal(badNumber.code, 2);
    assert.match(badNumber.stderr, /argument "head" must be a number/);
    const missing = await mcpwire(['call', 'read_text_file', ...fs]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /needs "path"/);
    const noTool = await mcpwire(['call', 'no_such_tool', ...fs]);
    assert.equal(noTool.code, 2);
    assert.match(noTool.stderr, /there is no tool "no_such_tool"/);
  });

  it('read prints a resource, and a missing one is an error naming the URI', async () => {
    const uri = `file://${path.join(folder, 'docs', 'note.txt')}`;
    const run = await mcpwire(['read', uri, ...fs]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'hello note\n\n');
    const missing = await mcpwire(['read', `${uri}.nope`, ...fs]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /Resource not found/);
    assert.match(missing.stderr, /note\.txt\.nope/);
  });

  it('a command that does not exist: exit 3, one sentence and a hint, no stack trace', async () => {
    const run = await mcpwire(['tools', '--', 'mcpwire-no-such-server-command']);
    assert.equal(run.code, 3);
    assert.match(run.stderr, /could not start "mcpwire-no-such-server-command": no such command/);
    assert.match(run.stderr, /^hint: /m);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
  });

  it('a server that prints garbage on stdout and exits: the hint points at stdout', async () => {
    const run = await mcpwire([
      'tools',
      '--',
      process.execPath,
      '-e',
      'console.log("Server starting..."); process.exit(1)',
    ]);
    assert.equal(run.code, 3);
    assert.match(run.stderr, /exited with code 1/);
    assert.match(run.stderr, /not JSON-RPC to stdout: "Server starting\.\.\."/);
  });

  it('a server that exits at once is reported with its exit code and stderr', async () => {
    const run = await mcpwire([
      'tools',
      '--',
      process.execPath,
      '-e',
      'console.error("missing API key"); process.exit(4)',
    ]);
    assert.equal(run.code, 3);
    assert.match(run.stderr, /exited with code 4/);
    assert.match(run.stderr, /missing API key/);
  });

  it('--config with --server picks one configured server; an unknown one is named', async () => {
    const config = path.join(folder, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { files: { command: process.execPath, args: [bin, 'serve', 'fs', '--root', folder] } },
      }),
    );
    const run = await mcpwire([
      'call',
      'list_directory',
      'path=docs',
      '--config',
      config,
      '--server',
      'files',
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '[FILE] note.txt\n');
    const wrong = await mcpwire(['tools', '--config', config, '--server', 'nope']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /has no server "nope"; it has: files/);
  });
});
