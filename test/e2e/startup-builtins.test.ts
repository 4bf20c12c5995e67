// Start-up (issue 21): a stdio server answers initialize without loading node:crypto, node:http,
// node:https (and node:tls), node:child_process, node:module, node:fs/promises or node's File (which an
// import of node:buffer loads), which cost it start-up time and which it does not need before its first
// answer. Both the library (a minimal McpServer) and `mcpwire serve everything` as a host
// spawns it. The mcpwire/server entry loads none of the client's, the host's or the gateway's code.
// Needs the build (`npm run build`): all of it runs or reads dist/.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const REPORTER = path.join(ROOT, 'test', 'fixtures', 'startup', 'report-builtins.mjs');

/** Runs the server, answers initialize, ends its stdin; resolves with the watched builtins it loaded. */
function loadedBy(args: string[]): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', REPORTER, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      // The answer to initialize is in: whatever was loaded for it is loaded now.
      if (stdout.includes('\n')) child.stdin.end();
    });
    child.on('error', reject);
    child.on('exit', () => {
      const match = /loaded builtins: (\[.*\])/.exec(stderr);
      if (!stdout.includes('"result"') || !match) {
        reject(new Error(`no answer or no report; stdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      resolve(JSON.parse(match[1]!) as string[]);
    });
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })}\n`,
    );
  });
}

describe('start-up of a stdio server', { timeout: 30_000 }, () => {
  before(() => {
    assert.ok(existsSync(path.join(ROOT, 'dist', 'index.js')), 'run "npm run build" first');
  });

  it('a minimal McpServer (from mcpwire/server) answers initialize without any of them', async () => {
    const server = path.join(ROOT, 'test', 'fixtures', 'startup', 'json-schema-server.mjs');
    assert.deepEqual(await loadedBy([server]), []);
  });

  it('mcpwire serve everything answers initialize without them too', async () => {
    assert.deepEqual(await loadedBy([path.join(ROOT, 'bin', 'mcpwire.js'), 'serve', 'everything']), []);
  });
});

/**
 * The modules bundled into the files an entry loads before it runs: its own file and every file it imports
 * statically, transitively, as `src/<path>.ts`, read from each file's source map (the build's maps lead
 * back through tsc's to src/). With `dynamic`, what it may load later too (its `import()`s).
 */
function staticModules(entry: string, dynamic = false): Set<string> & { files: number } {
  const modules = new Set<string>() as Set<string> & { files: number };
  const imports = dynamic ? /\b(?:from|import)\s*\(?"(\.[^"]+)"/g : /\b(?:from|import)\s*"(\.[^"]+)"/g;
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) {
      modules.add(
        path
          .relative(ROOT, path.resolve(path.dirname(file), source))
          .split(path.sep)
          .join('/'),
      );
    }
    // Minified: `import{a}from"./chunks/core.js"`, `export{b}from"./x.js"`, `import"./y.js"`.
    for (const [, specifier] of text.matchAll(imports)) {
      visit(path.resolve(path.dirname(file), specifier!));
    }
  };
  visit(path.join(ROOT, 'dist', entry));
  modules.files = seen.size;
  return modules;
}

describe('the mcpwire/server entry', () => {
  it('loads the server and none of the client, the host, the gateway or the OAuth client', () => {
    const server = staticModules('server.js');
    assert.ok(server.has('src/server/server.ts'), `McpServer is not in: ${[...server].join(', ')}`);
    const foreign = [...server].filter((module) =>
      /^src\/(client|host|gateway|inspect|cli)\/|^src\/transport\/http\//.test(module),
    );
    assert.deepEqual(foreign, []);
    // The whole package's entry does load them: the check above sees what it is meant to.
    const everything = staticModules('index.js');
    assert.ok(everything.has('src/client/client.ts'));
    assert.ok(everything.size > server.size);
    // Few files: each costs a resolve, a read and a compile before the first answer (scripts/bundle-library.mjs).
    assert.equal(server.files, 2, 'mcpwire/server: itself and the core layer');
    assert.equal(everything.files, 4, 'mcpwire: itself, the core, the later and the client layers');
  });

  it('never loads the client layer, whatever it serves (HTTP, authorization, a fleet)', () => {
    const any = staticModules('server.js', true);
    assert.ok(any.has('src/transport/http/session-transport.ts'), 'the HTTP transport is within reach');
    const foreign = [...any].filter((module) => /^src\/(client|host|gateway|inspect|cli)\//.test(module));
    assert.deepEqual(foreign, []);
    assert.equal(any.files, 3, 'mcpwire/server: itself, the core and, for HTTP, the later layer');
  });

  it('exports the same classes as the whole package', async () => {
    const lean = await import(path.join(ROOT, 'dist', 'server.js'));
    const whole = await import(path.join(ROOT, 'dist', 'index.js'));
    for (const name of ['McpServer', 'JsonRpcError', 'ToolInputError', 'StreamedString', 'UriTemplate']) {
      assert.equal(lean[name], whole[name], name);
    }
  });
});
