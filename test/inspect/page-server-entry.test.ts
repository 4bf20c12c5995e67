// The page's form to add a server: a command line split into words as a shell splits them (nothing
// expanded), a URL with its headers, a pasted configuration; and what is wrong said before sending.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serversFrom, splitCommandLine } from '../../page/src/server-entry.js';

describe('the page: a server to add', () => {
  it('splits a command line as a shell does, quotes and backslashes included, expanding nothing', () => {
    assert.deepEqual(splitCommandLine('  npx -y  @scope/server  '), ['npx', '-y', '@scope/server']);
    assert.deepEqual(splitCommandLine(`node "my dir/server.mjs" 'a "b"' c\\ d "" $HOME`), [
      'node',
      'my dir/server.mjs',
      'a "b"',
      'c d',
      '',
      '$HOME',
    ]);
    assert.deepEqual(splitCommandLine('say "a \\"quoted\\" word"'), ['say', 'a "quoted" word']);
    assert.throws(() => splitCommandLine('node "server.mjs'), /unclosed "/);
  });

  it('makes a configuration table from a command, a URL with headers, or pasted JSON', () => {
    assert.deepEqual(serversFrom({ kind: 'command', name: ' files ', text: 'mcpwire serve fs --root .' }), {
      files: { command: 'mcpwire', args: ['serve', 'fs', '--root', '.'] },
    });
    assert.deepEqual(
      serversFrom({
        kind: 'url',
        name: 'remote',
        text: 'https://example.com/mcp',
        headers: 'Authorization: Bearer a:b\n\nX-Region: eu',
      }),
      {
        remote: {
          url: 'https://example.com/mcp',
          headers: { Authorization: 'Bearer a:b', 'X-Region': 'eu' },
        },
      },
    );
    const table = { a: { command: 'x' }, b: { url: 'http://127.0.0.1:1/mcp' } };
    assert.deepEqual(
      serversFrom({ kind: 'config', name: '', text: JSON.stringify({ mcpServers: table }) }),
      table,
    );
    assert.deepEqual(
      serversFrom({ kind: 'config', name: '', text: JSON.stringify({ servers: table }) }),
      table,
    );
  });

  it('says what is wrong before anything is sent', () => {
    assert.throws(() => serversFrom({ kind: 'command', name: '', text: 'x' }), /name/);
    assert.throws(() => serversFrom({ kind: 'command', name: 'a', text: '   ' }), /command/);
    assert.throws(() => serversFrom({ kind: 'url', name: 'a', text: 'file:///etc/passwd' }), /http/);
    assert.throws(
      () => serversFrom({ kind: 'url', name: 'a', text: 'http://h/mcp', headers: 'no colon' }),
      /not a header/,
    );
    assert.throws(() => serversFrom({ kind: 'config', name: '', text: '{' }), /not JSON/);
    assert.throws(() => serversFrom({ kind: 'config', name: '', text: '{"x": 1}' }), /mcpServers/);
  });
});
