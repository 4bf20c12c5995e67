// Every client command against a URL: the same output as for a stdio server, and one clear line (exit 3)
// for each way a URL cannot be used: nothing listening, a TLS mismatch, a 404, a server that wants
// authorization (naming what it announced), and a web page where the endpoint should be.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { BIN } from '../support/peers.js';
import { freePort, type RemoteServer, startRemote } from '../support/remote-servers.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function mcpwire(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

describe('the command line with --url', () => {
  let own: RemoteServer;
  let legacy: RemoteServer;
  let fake: Server;
  let fakeUrl: string;
  const seenHeaders: IncomingHttpHeaders[] = [];

  before(async () => {
    [own, legacy] = await Promise.all([startRemote('mcpwire'), startRemote('sdk-sse')]);
    // A web server that is not MCP: a login page, a protected endpoint, and nothing else.
    fake = createServer((req, res) => {
      seenHeaders.push(req.headers);
      if (req.url === '/login') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Please log in</body></html>');
      } else if (req.url === '/protected') {
        res
          .writeHead(401, {
            'www-authenticate':
              'Bearer resource_metadata="https://auth.example/.well-known/oauth-protected-resource"',
          })
          .end();
      } else {
        res.writeHead(404).end('not here');
      }
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
  });

  after(async () => {
    await Promise.all([own?.stop(), legacy?.stop()]);
    fake?.close();
  });

  it('lists and calls the tools of a Streamable HTTP server', async () => {
    const tools = await mcpwire(['tools', '--url', own.url]);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^echo\b/m);
    const call = await mcpwire(['call', 'echo', 'message=over the wire', '--url', own.url]);
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stdout.trim(), 'Echo: over the wire');
    const json = await mcpwire(['call', 'echo', 'message=x', '--url', own.url, '--json']);
    assert.equal(JSON.parse(json.stdout).content[0].text, 'Echo: x');
  });

  it('falls back to the older HTTP+SSE transport for a server that has only that', async () => {
    const call = await mcpwire(['call', 'add', 'a=20', 'b=22', '--url', legacy.url]);
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stdout.trim(), '42');
  });

  it('sends each --header with every request', async () => {
    seenHeaders.length = 0;
    await mcpwire([
      'tools',
      '--url',
      `${fakeUrl}/login`,
      '--header',
      'Authorization: Bearer t0k3n',
      '--header',
      'X-Team:  core ',
    ]);
    assert.ok(seenHeaders.length > 0);
    for (const headers of seenHeaders) {
      assert.equal(headers.authorization, 'Bearer t0k3n');
      assert.equal(headers['x-team'], 'core');
    }
  });

  const failures: Array<[string, () => Promise<string>, RegExp, RegExp]> = [
    [
      'nothing listening',
      async () => `http://127.0.0.1:${await freePort()}/mcp`,
      /cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: connection refused/,
      /Is the server running/,
    ],
    [
      'TLS to a server without it',
      async () => `${fakeUrl.replace('http:', 'https:')}/mcp`,
      /TLS failed: wrong version number/,
      /http:\/\/ for a server without TLS/,
    ],
    [
      'a 404',
      async () => `${fakeUrl}/nowhere`,
      /answered HTTP 404: there is no MCP endpoint at that path/,
      /\/mcp/,
    ],
    [
      'a server that wants authorization',
      async () => `${fakeUrl}/protected`,
      // Every --url command now follows the challenge (OAuth); metadata on another origin is refused, by name.
      /announced resource metadata on another origin \(https:\/\/auth\.example, not http:\/\/127\.0\.0\.1:\d+\); it is not followed/,
      /mcpwire login http:\/\/127\.0\.0\.1/,
    ],
    [
      'a web page',
      async () => `${fakeUrl}/login`,
      /answered text\/html, not MCP: "<html><body>Please log in<\/body><\/html>"/,
      /not a web page/,
    ],
  ];
  for (const [what, url, message, hint] of failures) {
    it(`says in one line what is wrong: ${what}`, async () => {
      for (const command of [['tools'], ['call', 'echo'], ['read', 'file:///x'], ['prompts']]) {
        const run = await mcpwire([...command, '--url', await url()]);
        assert.equal(run.code, 3, `${command[0]}: ${run.stderr}`);
        const [first, second, ...rest] = run.stderr.trim().split('\n');
        assert.match(first ?? '', message);
        assert.match(second ?? '', /^hint: /);
        assert.match(second ?? '', hint);
        assert.deepEqual(rest, []);
        assert.equal(run.stdout, '');
      }
    });
  }

  it('refuses a malformed --url or --header before connecting', async () => {
    const bad = await mcpwire(['tools', '--url', 'not a url']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--url "not a url" is not a URL/);
    const scheme = await mcpwire(['tools', '--url', 'ftp://x/mcp']);
    assert.equal(scheme.code, 2);
    assert.match(scheme.stderr, /must be http:\/\/ or https:\/\/, not ftp:/);
    const header = await mcpwire(['tools', '--url', own.url, '--header', 'no colon here']);
    assert.equal(header.code, 2);
    assert.match(header.stderr, /--header "no colon here" is not "Name: value"/);
    const both = await mcpwire(['tools', '--url', own.url, '--', 'node', 'server.js']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /give one of --url URL, --config FILE or "-- COMMAND"/);
  });
});
