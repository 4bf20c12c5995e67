// mcpwire as a library user gets it: the build packed with `npm pack` and installed from the tarball
// into an empty project (its dependencies come from the npm registry). The install compiles nothing
// native (better-sqlite3 is an optional peer dependency); the source maps carry their sources; the CLI
// runs and `serve sqlite` says what to install; and a consumer's TypeScript that imports the public API
// type-checks against the published .d.ts under NodeNext and under Bundler resolution, strict, with
// skipLibCheck off. One pack and one install serve every case.
// Needs the build (`npm run build`; `npm test` runs it first) and the npm registry.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir } from '../support/fs-harness.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The names the consumer imports: the classes a user of each part of mcpwire starts from. */
const PUBLIC_NAMES = [
  'McpServer',
  'McpClient',
  'ChildProcessTransport',
  'HttpClientTransport',
  'McpHost',
  'Connection',
];

const CONSUMER_TS = `import {
  ChildProcessTransport,
  Connection,
  HttpClientTransport,
  loadConfig,
  McpClient,
  McpHost,
  McpServer,
  McpwireError,
} from 'mcpwire';
import { abortCancellation, Connection as EngineConnection, createInMemoryPair, ErrorCode } from 'mcpwire/jsonrpc';
import { McpServer as LeanServer, type ToolOutput } from 'mcpwire/server';

export function echoServer(): McpServer {
  const server = new McpServer({ name: 'consumer', version: '1.0.0' });
  server.tool(
    {
      name: 'echo',
      description: 'Says the text back',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    async (args, ctx) => {
      ctx.progress(1, 2, 'echoing');
      return { content: [{ type: 'text', text: String(args.text) }] };
    },
  );
  return server;
}

export async function toolNames(): Promise<string[]> {
  const client = new McpClient({ name: 'consumer', version: '1.0.0' });
  await client.connect(new ChildProcessTransport({ command: 'npx', args: ['mcpwire', 'serve', 'fs'] }));
  const tools = await client.listAllTools();
  await client.close();
  return tools.map((tool) => tool.name);
}

export async function echoOverHttp(url: string): Promise<unknown> {
  const client = new McpClient({ name: 'consumer', version: '1.0.0' });
  await client.connect(new HttpClientTransport(new URL(url)));
  return client.callTool('echo', { text: 'hello' });
}

export async function startHost(file: string): Promise<McpHost> {
  const host = new McpHost(await loadConfig(file));
  await host.start();
  return host;
}

export function rawConnection(): Connection {
  return new Connection(new ChildProcessTransport({ command: 'node', args: ['server.js'] }));
}

/** The engine alone, from the mcpwire/jsonrpc subpath: the same class as the main entry's. */
export function engine(): { same: boolean; code: number } {
  const [a] = createInMemoryPair();
  const connection: Connection = new EngineConnection(a, { cancellation: abortCancellation });
  return { same: connection instanceof Connection, code: ErrorCode.HeaderMismatch };
}

/** A server from the mcpwire/server subpath, which starts faster: the same class as the main entry's. */
export function leanServer(): boolean {
  const server = new LeanServer({ name: 'lean', version: '1.0.0' });
  server.tool({ name: 'ping' }, (): ToolOutput => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server instanceof McpServer;
}

export function isLocal(error: unknown): string | undefined {
  return error instanceof McpwireError ? error.code : undefined;
}
`;

/** The consumer's tsconfig for one resolution mode. */
function tsconfig(module: string, moduleResolution: string): string {
  const compilerOptions = {
    target: 'ES2022',
    module,
    moduleResolution,
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    types: ['node'],
  };
  return `${JSON.stringify({ compilerOptions, files: ['consumer.ts'] }, null, 2)}\n`;
}

const MODES = [
  { name: 'NodeNext', module: 'NodeNext', moduleResolution: 'NodeNext' },
  { name: 'Bundler', module: 'ESNext', moduleResolution: 'Bundler' },
];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment for child npm and node processes: without the npm_* variables of the `npm test` that
 * runs this file (npm_config_local_prefix would point npm at this repository instead of the consumer),
 * but with what reaches the registry.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const keep =
    /^npm_config_(registry|cache|userconfig|globalconfig|cafile|proxy|https_proxy|noproxy|strict_ssl)$/i;
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || keep.test(key)),
  );
}

/** Runs a command to its end; one still running after `timeoutMs` (a server that started) is killed. */
function run(command: string, args: string[], cwd: string, timeoutMs = 30_000): Promise<Run> {
  const options = { cwd, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs };
  return new Promise((resolve) => {
    execFile(command, args, options, (error, stdout, stderr) => {
      const failed = error as (Error & { code?: unknown; killed?: boolean }) | null;
      const code = failed === null ? 0 : typeof failed.code === 'number' ? failed.code : null;
      const note = failed?.killed ? `\n(killed: still running after ${timeoutMs} ms)` : '';
      resolve({ code, stdout, stderr: stderr + note });
    });
  });
}

/** Runs the command and fails, with what it printed, unless it exits 0. */
async function succeed(command: string, args: string[], cwd: string, timeoutMs?: number): Promise<Run> {
  const result = await run(command, args, cwd, timeoutMs);
  assert.equal(
    result.code,
    0,
    `${path.basename(command)} ${args.join(' ')} (in ${cwd}) exited ${result.code}:\n${result.stderr}${result.stdout}`,
  );
  return result;
}

/** Every path under `directory`, relative to it. */
function walk(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' });
}

let work: string;
let consumer: string;
let installed: string;
let packedFiles: string[];
let installOutput: string;

before(
  async () => {
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/cli/bin.js']) {
      assert.ok(
        existsSync(path.join(ROOT, file)),
        `${file} is missing: run "npm run build" first (npm test does)`,
      );
    }
    work = await makeTempDir('mcpwire-package-');
    // The build that is there: packing without scripts skips "prepare", which would build it again.
    const pack = await succeed(
      npm,
      ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
      ROOT,
      120_000,
    );
    const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    assert.ok(info, `npm pack printed no package: ${pack.stdout}`);
    packedFiles = info.files.map((file) => file.path);

    consumer = path.join(work, 'consumer');
    await mkdir(consumer);
    await writeFile(
      path.join(consumer, 'package.json'),
      `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    // @types/node at the repository's version: a Node project has it, and mcpwire's .d.ts use Node's types.
    const typesNode = JSON.parse(
      readFileSync(path.join(ROOT, 'node_modules', '@types', 'node', 'package.json'), 'utf8'),
    ) as { version: string };
    // Install scripts are left to npm's defaults (and shown as they run), so that one that compiled
    // something would be seen.
    const install = await succeed(
      npm,
      [
        'install',
        '--prefix',
        consumer,
        '--no-audit',
        '--no-fund',
        '--foreground-scripts',
        path.join(work, info.filename),
        `@types/node@${typesNode.version}`,
      ],
      consumer,
      240_000,
    );
    installOutput = install.stdout + install.stderr;
    installed = path.join(consumer, 'node_modules', 'mcpwire');
    assert.ok(existsSync(path.join(installed, 'package.json')), `mcpwire was not installed into ${consumer}`);

    await writeFile(path.join(consumer, 'consumer.ts'), CONSUMER_TS);
    for (const mode of MODES) {
      await writeFile(
        path.join(consumer, `tsconfig.${mode.name}.json`),
        tsconfig(mode.module, mode.moduleResolution),
      );
    }
  },
  { timeout: 300_000 },
);

after(async () => {
  if (work) await removeDir(work);
});

describe('the packed package', () => {
  it('holds the build, the CLI, the license and the schemas; not src/ or the tests', () => {
    for (const file of [
      'LICENSE',
      'README.md',
      'package.json',
      'bin/mcpwire.js',
      'dist/index.js',
      'dist/index.d.ts',
    ]) {
      assert.ok(packedFiles.includes(file), `${file} is in the tarball`);
    }
    assert.ok(packedFiles.some((file) => /^spec\/mcp-schema\/[^/]+\/schema\.json$/.test(file)));
    assert.deepEqual(
      packedFiles.filter((file) => /^(src|test|bench|scripts)\//.test(file)),
      [],
    );
    assert.match(
      readFileSync(path.join(installed, 'LICENSE'), 'utf8'),
      /^MIT License\n\nCopyright \(c\) 2026 the mcpwire authors\n/,
    );
  });

  it('has a source map for every module, and each map resolves: its sources are inlined', () => {
    const dist = path.join(installed, 'dist');
    const modules = walk(dist).filter((file) => file.endsWith('.js'));
    assert.ok(modules.length > 50, `the build has its modules (${modules.length})`);
    const unresolved: string[] = [];
    for (const module of modules) {
      const code = readFileSync(path.join(dist, module), 'utf8');
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)?.[1];
      const mapFile = url && path.join(dist, path.dirname(module), url);
      if (!mapFile || !existsSync(mapFile)) {
        unresolved.push(`${module}: no map (${url})`);
        continue;
      }
      const map = JSON.parse(readFileSync(mapFile, 'utf8')) as {
        sources: string[];
        sourcesContent?: unknown[];
      };
      map.sources.forEach((source, i) => {
        const inlined = typeof map.sourcesContent?.[i] === 'string';
        if (!inlined && !existsSync(path.resolve(path.dirname(mapFile), source))) {
          unresolved.push(`${module}: ${source}`);
        }
      });
    }
    assert.deepEqual(unresolved, [], 'every source of every map is in the package or in the map');
  });
});

describe('installing it as a library', () => {
  it('installs no better-sqlite3 and compiles nothing native', () => {
    const modules = path.join(consumer, 'node_modules');
    assert.equal(
      existsSync(path.join(modules, 'better-sqlite3')),
      false,
      'better-sqlite3, an optional peer dependency, must not be installed',
    );
    const native = walk(modules).filter((file) => /(^|\/)(binding\.gyp|config\.gypi)$|\.node$/.test(file));
    assert.deepEqual(native, [], 'no addon sources, node-gyp builds or compiled addons');
    const lock = JSON.parse(readFileSync(path.join(consumer, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([name]) => name);
    assert.deepEqual(withScripts, [], 'no installed package has an install script');
    assert.doesNotMatch(
      installOutput,
      /node-gyp|prebuild-install|gyp info/,
      'no build ran during the install',
    );
  });

  it('loads without better-sqlite3: the public classes, and the CLI', async () => {
    const script = `const m = await import('mcpwire');
      console.log(JSON.stringify(${JSON.stringify(PUBLIC_NAMES)}.map((name) => [name, typeof m[name]])));`;
    const loaded = await succeed(process.execPath, ['--input-type=module', '-e', script], consumer);
    assert.deepEqual(
      JSON.parse(loaded.stdout),
      PUBLIC_NAMES.map((name) => [name, 'function']),
    );
    const bin = path.join(consumer, 'node_modules', '.bin', 'mcpwire');
    const version = await succeed(bin, ['--version'], consumer);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(version.stdout, `${pkg.version}\n`);
  });

  it('serve sqlite without better-sqlite3: exit 2, naming the package and how to install it', async () => {
    await writeFile(path.join(consumer, 'data.db'), '');
    const serve = await run(
      path.join(consumer, 'node_modules', '.bin', 'mcpwire'),
      ['serve', 'sqlite', 'data.db'],
      consumer,
    );
    assert.equal(serve.code, 2, serve.stderr);
    assert.equal(serve.stdout, '', 'nothing on stdout, which belongs to MCP');
    assert.equal(
      serve.stderr,
      'mcpwire serve: the SQLite server needs the better-sqlite3 package, which is not installed\n' +
        'hint: Run "npm install better-sqlite3" where mcpwire is installed (with npx: npx -p mcpwire -p better-sqlite3 mcpwire serve sqlite ...).\n',
    );
  });
});

describe("a consumer's TypeScript against the published .d.ts (strict, skipLibCheck off)", () => {
  for (const mode of MODES) {
    it(`type-checks with module ${mode.module}, moduleResolution ${mode.moduleResolution}`, async () => {
      const tsc = await run(
        process.execPath,
        [TSC, '-p', `tsconfig.${mode.name}.json`, '--listFiles'],
        consumer,
        120_000,
      );
      const errors = tsc.stdout
        .split('\n')
        .filter((line) => !line.startsWith('/'))
        .join('\n');
      assert.equal(tsc.code, 0, `tsc reported:\n${errors}${tsc.stderr}`);
      // Not vacuous: the types came from the installed package, and its .d.ts were checked.
      assert.ok(
        tsc.stdout.split('\n').includes(path.join(installed, 'dist', 'index.d.ts')),
        'tsc read node_modules/mcpwire/dist/index.d.ts',
      );
    });
  }
});
