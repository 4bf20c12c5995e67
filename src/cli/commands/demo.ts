// `mcpwire demo`: a typical host-to-filesystem-server exchange (the one the project's seed document walks through), live. It starts `mcpwire serve fs` over a small sample folder and
// walks through initialize, tools/list, tools/call list_directory, resources/read, a missing file and a
// log notification, then the same server in the stateless 2026-07-28 revision, printing every JSON-RPC
// message with its direction and what it means.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Connection } from '../../jsonrpc/connection.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { ChildProcessTransport } from '../../transport/child-process.js';
import { tapTransport } from '../../transport/tap.js';
import { colour } from '../format.js';

export const usage = `Usage: mcpwire demo

Starts "mcpwire serve fs" over a sample folder and shows a typical exchange between a host and a filesystem server, message by message:
→ what the client (the host) writes to the server's stdin, ← what the server answers on stdout.`;

const MAX_SHOWN = 600;

function show(direction: 'out' | 'in', payload: unknown): void {
  let text = JSON.stringify(payload);
  if (text.length > MAX_SHOWN) text = `${text.slice(0, MAX_SHOWN)}… (${text.length} characters)`;
  const arrow = direction === 'out' ? colour.cyan('→ client  ') : colour.magenta('← server  ');
  process.stdout.write(`${arrow}${text}\n`);
}

function explain(text: string): void {
  process.stdout.write(`${colour.dim(`           ${text}`)}\n`);
}

function step(title: string): void {
  process.stdout.write(`\n${colour.bold(title)}\n`);
}

export async function run(): Promise<number> {
  const folder = await mkdtemp(path.join(tmpdir(), 'mcpwire-demo-'));
  await mkdir(path.join(folder, 'docs'));
  await writeFile(path.join(folder, 'docs', 'test.txt'), 'Hello from a local file, read over MCP.\n');
  await writeFile(path.join(folder, 'docs', 'notes.md'), '# Notes\n\nMCP is JSON-RPC 2.0 over stdio.\n');
  await mkdir(path.join(folder, 'docs', 'images'));

  const bin = fileURLToPath(new URL('../../../bin/mcpwire.js', import.meta.url));
  process.stdout.write(
    `${colour.bold('mcpwire demo')}: a host spawns ${colour.cyan('mcpwire serve fs')} and talks JSON-RPC 2.0 over its stdin/stdout.\n`,
  );
  process.stdout.write(colour.dim(`sample folder: ${folder}\n`));

  const transport = tapTransport(
    new ChildProcessTransport({
      command: process.execPath,
      args: [bin, 'serve', 'fs', '--root', folder],
      cwd: folder,
    }),
    { sent: (p) => show('out', p), received: (p) => show('in', p) },
  );
  const connection = new Connection(transport, { timeout: 10_000 });
  const notes: Record<string, string> = {
    'notifications/message':
      'a log message pushed by the server: a notification, so it has no id and gets no reply',
  };
  connection.onNotification('notifications/message', () => explain(notes['notifications/message']!));
  connection.start();
  try {
    step('1. initialize: the first request a host sends');
    const init = await connection.request<{ protocolVersion: string }>('initialize', {
      protocolVersion: '0.1.0',
      clientInfo: { name: 'claude-desktop', version: '0.7.0' },
    });
    explain(
      `"0.1.0" is not a protocol revision, so the server answered with its latest, ${init.protocolVersion}; the id is echoed back`,
    );

    step('2. notifications/initialized: no id, so no response');
    connection.notify('notifications/initialized');
    explain('the handshake is done; the server will never answer a notification, not even with an error');

    step('3. tools/list: what can this server do?');
    const { tools } = await connection.request<{ tools: Array<{ name: string }> }>('tools/list', {});
    explain(`${tools.length} tools: ${tools.map((t) => t.name).join(', ')}`);

    step('4. tools/call list_directory {"path": "./docs"}: calling a tool');
    await connection.request('logging/setLevel', { level: 'info' });
    explain('logging/setLevel asked for log messages of level info and above');
    await connection.request('tools/call', { name: 'list_directory', arguments: { path: './docs' } });
    explain('the result: [FILE] and [DIR] lines as text, and the same entries as structuredContent');

    step('5. resources/read of a file:// URI');
    const uri = pathToFileURL(path.join(folder, 'docs', 'test.txt')).href;
    await connection.request('resources/read', { uri });
    explain('the file comes back in "contents" with its URI and MIME type');

    step('6. resources/read of a file that does not exist');
    const missing = pathToFileURL(path.join(folder, 'docs', 'missing.txt')).href;
    try {
      await connection.request('resources/read', { uri: missing });
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw error;
      explain(
        `error ${error.code} (resource not found), and "data" names the URI: the request still got exactly one response`,
      );
    }
    step('7. The current revision, 2026-07-28, on the same connection: no handshake at all');
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'claude-desktop', version: '0.7.0' },
    };
    await connection.request('server/discover', { _meta: meta });
    explain('server/discover: versions, capabilities and identity; every request now carries them in _meta');
    await connection.request('tools/call', {
      _meta: meta,
      name: 'list_directory',
      arguments: { path: './docs' },
    });
    explain('the same tool, the same handler; the result says resultType "complete" and who answered');
    try {
      await connection.request('resources/read', { _meta: meta, uri: missing });
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw error;
      explain(`a missing resource is ${error.code} (invalid params) in this revision, still naming the URI`);
    }
    process.stdout.write(
      `\n${colour.green('Done.')} Try it yourself: ${colour.cyan('npx mcpwire tools -- npx mcpwire serve fs')}\n`,
    );
    return 0;
  } finally {
    await connection.close();
    await rm(folder, { recursive: true, force: true });
  }
}
