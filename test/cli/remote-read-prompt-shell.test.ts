// get-prompt, read, resources and shell against remote servers (--url), with the output they give for a
// stdio server: mcpwire's own Streamable HTTP server (serve everything --http) and the official SDK v1
// server behind its Streamable HTTP transport, each started by the test on 127.0.0.1.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { BIN } from '../support/peers.js';
import { type RemoteServer, startRemote } from '../support/remote-servers.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function mcpwire(args: string[], input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}

describe('get-prompt, read and shell with --url', { timeout: 120_000 }, () => {
  let own: RemoteServer;
  let sdk: RemoteServer;

  before(async () => {
    [own, sdk] = await Promise.all([startRemote('mcpwire'), startRemote('sdk-streamable')]);
  });

  after(async () => {
    await Promise.all([own?.stop(), sdk?.stop()]);
  });

  it("get-prompt renders a remote server's prompt, with its arguments, as for a stdio server", async () => {
    const text = await mcpwire([
      'get-prompt',
      'test_prompt_with_arguments',
      'arg1=a',
      'arg2=b',
      '--url',
      own.url,
    ]);
    assert.equal(text.code, 0, text.stderr);
    // The role's spelling is the prompt renderer's business; the text and its arguments are what is tested.
    assert.match(text.stdout.trim(), /^user: Prompt with arguments: arg1='a', arg2='b'$/i);
    const json = await mcpwire([
      'get-prompt',
      'test_prompt_with_arguments',
      'arg1=a',
      'arg2=b',
      '--json',
      '--url',
      own.url,
    ]);
    assert.equal(json.code, 0, json.stderr);
    const result = JSON.parse(json.stdout) as {
      messages: Array<{ role: string; content: { text: string } }>;
    };
    assert.equal(result.messages[0]?.role, 'user');
    assert.match(result.messages[0]!.content.text, /arg1='a', arg2='b'/);
    const sdkPrompt = await mcpwire(['get-prompt', 'greet', 'who=Ada', '--url', sdk.url]);
    assert.equal(sdkPrompt.code, 0, sdkPrompt.stderr);
    assert.match(sdkPrompt.stdout.trim(), /^user: Please greet Ada\.$/i);
  });

  it('get-prompt of a prompt the server does not have names the ones it has', async () => {
    const run = await mcpwire(['get-prompt', 'nope', '--url', own.url]);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /there is no prompt "nope"/);
    assert.match(run.stderr, /test_simple_prompt/);
    assert.equal(run.stdout, '');
  });

  it('resources lists, and read reads, resources and templated resources of a remote server', async () => {
    const listed = await mcpwire(['resources', '--url', own.url]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^test:\/\/static-text\s+Static text \(text\/plain\)$/m);
    assert.match(listed.stdout, /^test:\/\/template\/\{id\}\/data\s+template: template$/m);
    const text = await mcpwire(['read', 'test://static-text', '--url', own.url]);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout.trim(), 'This is the content of the static text resource.');
    const templated = await mcpwire(['read', 'test://template/7/data', '--url', own.url]);
    assert.equal(templated.code, 0, templated.stderr);
    assert.deepEqual(JSON.parse(templated.stdout), { id: '7', templateTest: true, data: 'Data for ID: 7' });
    const item = await mcpwire(['read', 'fixture://items/banana', '--url', sdk.url]);
    assert.equal(item.code, 0, item.stderr);
    assert.equal(item.stdout.trim(), 'item banana');
    const missing = await mcpwire(['read', 'test://nope', '--url', own.url]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /test:\/\/nope/);
  });

  it('shell talks to a remote server: lists its tools and calls one, then exits', async () => {
    const own_ = await mcpwire(['shell', '--url', own.url], 'tools\ncall echo message=hi\nexit\n');
    assert.equal(own_.code, 0, own_.stderr);
    assert.match(own_.stdout, /^mcpwire shell: 127\.0\.0\.1 \(\d+ tools\)/);
    assert.match(own_.stdout, /echo\(message: string\)/);
    assert.match(own_.stdout, /Echo: hi/);
    const sdkShell = await mcpwire(['shell', '--url', sdk.url], 'call add a=20 b=22\nexit\n');
    assert.equal(sdkShell.code, 0, sdkShell.stderr);
    assert.match(sdkShell.stdout, /\b42\b/);
  });
});
