// The host's configuration file: stdio entries and remote ones side by side, in the shapes desktop hosts
// and editors write them, with ${VAR} expanded in URLs and headers, and one clear error for each mistake.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseConfig } from '../../src/host/config.js';

const env = { TOKEN: 'secret', HOST: 'example.com' };

function parse(servers: Record<string, unknown>) {
  return parseConfig({ mcpServers: servers }, env, '/base');
}

function refused(servers: Record<string, unknown>, pattern: RegExp): void {
  assert.throws(
    () => parse(servers),
    (error: unknown) => error instanceof ConfigError && pattern.test(error.message),
  );
}

describe('host configuration', () => {
  it('reads remote entries beside stdio ones, expanding variables in the URL and headers', () => {
    const config = parse({
      files: { command: 'npx', args: ['mcpwire', 'serve', 'fs'] },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the configuration's own ${VAR} syntax.
      remote: { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
    });
    assert.deepEqual(config.servers.remote, {
      type: 'http',
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer secret' },
      disabled: false,
    });
    assert.equal(config.servers.files?.type, 'stdio');
    assert.equal((config.servers.files as { command: string }).command, 'npx');
  });

  it('takes the transport names hosts and editors use', () => {
    const config = parseConfig(
      {
        servers: {
          a: { type: 'http', url: 'http://127.0.0.1:1/mcp' },
          b: { type: 'streamable-http', url: 'http://127.0.0.1:1/mcp' },
          c: { type: 'streamableHttp', url: 'http://127.0.0.1:1/mcp' },
          d: { type: 'sse', url: 'http://127.0.0.1:1/sse', disabled: true },
          e: { type: 'stdio', command: 'server' },
        },
      },
      env,
      '/base',
    );
    assert.deepEqual(
      Object.values(config.servers).map((s) => s.type),
      ['http', 'http', 'http', 'sse', 'stdio'],
    );
    assert.equal(config.servers.d?.disabled, true);
  });

  it('says what is wrong with a remote entry', () => {
    refused({ a: { type: 'websocket', url: 'ws://x' } }, /"type" "websocket" is not one of "stdio", "http"/);
    refused({ a: { type: 'constructor', url: 'http://x' } }, /"type" "constructor" is not one of/);
    refused({ a: { type: 'http' } }, /server "a" needs a "url" string/);
    refused({ a: { url: 'not a url' } }, /"url" "not a url" is not a URL/);
    refused({ a: { url: 'file:///etc/passwd' } }, /must be http:\/\/ or https:\/\/, not file:/);
    refused({ a: { url: 'http://x/mcp', headers: { A: 1 } } }, /"headers" must be an object of strings/);
    refused({ a: { url: 'http://x/mcp', headers: ['A: b'] } }, /"headers" must be an object of strings/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the configuration's own ${VAR} syntax.
    refused({ a: { url: 'http://x/mcp', headers: { A: '${UNSET}' } } }, /UNSET is not set/);
    refused(
      { a: { args: [] } },
      /needs a "command" string \(a stdio server\) or a "url" \(a remote server\)/,
    );
  });
});
