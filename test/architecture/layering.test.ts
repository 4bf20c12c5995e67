// The layering of src/, checked rather than described: each top-level folder is a layer, a file imports only
// from its own layer and the layers below, nothing imports in a circle, and the transports carry bytes
// without knowing MCP's method names. Runs in process over the source text; nothing is built or spawned.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Method, Notification } from '../../src/protocol/methods.js';
import {
  buildGraph,
  type ImportEdge,
  importCycles,
  importsOf,
  type LayerOrder,
  layerViolations,
  listTsFiles,
  methodNameLiterals,
  resolveSpecifier,
  unplacedFolders,
} from './module-graph.js';

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * Bottom to top. Folders in one entry are one level and must not import each other: a server and a client
 * are two ends of one protocol, and the inspector and the doctor are two independent tools over the host.
 * Files directly under src/ (index.ts and any future subpath entry) re-export and are exempt.
 */
const LAYERS: LayerOrder = [
  ['jsonrpc'],
  ['transport'],
  ['protocol'],
  ['server', 'client'],
  ['host'],
  ['servers', 'gateway'],
  ['inspect', 'doctor'],
  ['cli'],
];

/** The names the issue lists, the protocol's own table, and anything shaped like a namespaced method. */
const METHOD_NAMES = new Set<string>([
  'initialize',
  'tools/call',
  'tools/list',
  'notifications/initialized',
  'notifications/cancelled',
  'server/discover',
  'resources/read',
  'prompts/get',
  'subscriptions/listen',
  ...Object.values(Method),
  ...Object.values(Notification),
]);
const METHOD_SHAPE =
  /^(notifications|tools|resources|prompts|sampling|elicitation|roots|completion|logging|server|subscriptions)\//;
const isMethodName = (s: string) => METHOD_NAMES.has(s) || METHOD_SHAPE.test(s);

function edge(from: string, to: string, typeOnly = false): ImportEdge {
  return { from, specifier: to, to, typeOnly };
}

describe('the checker itself', () => {
  it('sees static, re-exported, type-only, dynamic and type-position imports, and not comments or strings', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C } from './c.js';",
      "export { d } from './d.js';",
      "export * from './e.js';",
      "export type { F } from './f.js';",
      "const g = await import('./g.js');",
      "type H = import('./h.js').H;",
      "import './side-effect.js';",
      "// import { x } from './in-a-comment.js';",
      'const s = "import { y } from \'./in-a-string.js\'";',
      'const computed = await import(name);',
    ].join('\n');
    assert.deepEqual(importsOf('x.ts', text), [
      { specifier: './a.js', typeOnly: false },
      { specifier: './b.js', typeOnly: true },
      { specifier: './c.js', typeOnly: false },
      { specifier: './d.js', typeOnly: false },
      { specifier: './e.js', typeOnly: false },
      { specifier: './f.js', typeOnly: true },
      { specifier: './g.js', typeOnly: false },
      { specifier: './h.js', typeOnly: true },
      { specifier: './side-effect.js', typeOnly: false },
    ]);
  });

  it('resolves .js to the .ts file, a bare path to .ts or index.ts, and leaves packages alone', () => {
    const files = new Set(['src/a/b.ts', 'src/a/c/index.ts']);
    const exists = (f: string) => files.has(f);
    assert.equal(resolveSpecifier('src/a/x.ts', './b.js', exists), 'src/a/b.ts');
    assert.equal(resolveSpecifier('src/a/x.ts', './c', exists), 'src/a/c/index.ts');
    assert.equal(resolveSpecifier('src/a/c/y.ts', '../b', exists), 'src/a/b.ts');
    assert.equal(resolveSpecifier('src/a/x.ts', 'node:fs', exists), undefined);
    assert.equal(resolveSpecifier('src/a/x.ts', 'typescript', exists), undefined);
  });

  it('fails an upward import, a sibling import and an import of an entry point, naming file, import and rule', () => {
    const edges = [
      edge('src/jsonrpc/connection.ts', 'src/protocol/codec.ts'),
      edge('src/server/server.ts', 'src/client/client.ts', true),
      edge('src/doctor/runner.ts', 'src/inspect/wire-monitor.ts'),
      edge('src/host/host.ts', 'src/index.ts'),
      edge('src/host/host.ts', 'test/support/wire.ts'),
    ];
    const problems = layerViolations(LAYERS, edges);
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.match(
      problems[0]!,
      /^src\/jsonrpc\/connection\.ts imports 'src\/protocol\/codec\.ts': jsonrpc is below protocol/,
    );
    assert.match(
      problems[1]!,
      /src\/server\/server\.ts imports .* \(type only\): server and client share a level/,
    );
    assert.match(problems[2]!, /src\/doctor\/runner\.ts imports .*: doctor and inspect share a level/);
    assert.match(problems[3]!, /src\/index\.ts is an entry point/);
    assert.match(problems[4]!, /outside src\//);
  });

  it('passes downward imports, imports inside one folder, packages, and anything an entry point imports', () => {
    const edges: ImportEdge[] = [
      edge('src/cli/main.ts', 'src/jsonrpc/connection.ts'),
      edge('src/inspect/wire-monitor.ts', 'src/host/host.ts'),
      edge('src/protocol/a.ts', 'src/protocol/http/b.ts'),
      edge('src/index.ts', 'src/cli/main.ts'),
      edge('src/subpath.ts', 'src/servers/fs/server.ts'),
      { from: 'src/jsonrpc/x.ts', specifier: 'node:fs', to: undefined, typeOnly: false },
    ];
    assert.deepEqual(layerViolations(LAYERS, edges), []);
  });

  it('finds a two-file circle, a longer one, and a self-import, and prints each as a closed path', () => {
    const cycles = importCycles([
      edge('src/a.ts', 'src/b.ts'),
      edge('src/b.ts', 'src/a.ts', true),
      edge('src/c.ts', 'src/d.ts'),
      edge('src/d.ts', 'src/e.ts'),
      edge('src/e.ts', 'src/c.ts'),
      edge('src/f.ts', 'src/f.ts'),
      edge('src/g.ts', 'src/a.ts'),
    ]);
    assert.deepEqual(cycles.sort(), [
      'src/a.ts -> src/b.ts -(type)-> src/a.ts',
      'src/c.ts -> src/d.ts -> src/e.ts -> src/c.ts',
      'src/f.ts -> src/f.ts',
    ]);
  });

  it('names the rest of a component that the shortest loop does not pass through', () => {
    const cycles = importCycles([
      edge('src/a.ts', 'src/b.ts'),
      edge('src/b.ts', 'src/a.ts'),
      edge('src/b.ts', 'src/c.ts'),
      edge('src/c.ts', 'src/a.ts'),
    ]);
    assert.deepEqual(cycles, ['src/a.ts -> src/b.ts -> src/a.ts (in one component with src/c.ts)']);
  });

  it('finds no cycle in a graph without one, however the edges are ordered', () => {
    assert.deepEqual(
      importCycles([
        edge('src/a.ts', 'src/b.ts'),
        edge('src/a.ts', 'src/c.ts'),
        edge('src/b.ts', 'src/c.ts'),
        edge('src/d.ts', 'src/a.ts'),
      ]),
      [],
    );
  });

  it('reports a folder no layer names, and a layer whose folder is gone', () => {
    assert.deepEqual(unplacedFolders(LAYERS, ['jsonrpc', 'transport', 'utils']).unplaced, ['utils']);
    assert.ok(unplacedFolders(LAYERS, ['jsonrpc']).missing.includes('cli'));
  });

  it('finds method names in strings and templates, and not in comments or import specifiers', () => {
    const text = [
      '// the initialize request and tools/call are answered elsewhere',
      "import { x } from './tools/list.js';",
      "const a = 'tools/call';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: this is source text holding a template literal
      'const b = `notifications/${kind}`;',
      "const c = { 'initialize': 1 };",
      "const d = 'content-type';",
    ].join('\n');
    assert.deepEqual(methodNameLiterals('x.ts', text, isMethodName), [
      { line: 3, text: 'tools/call' },
      { line: 4, text: 'notifications/' },
      { line: 5, text: 'initialize' },
    ]);
  });
});

describe('the layering of src/', () => {
  const files = listTsFiles(root, 'src');
  const edges = buildGraph(root, files);

  it('reads the tree: every file, and the imports between them', () => {
    assert.ok(files.includes('src/index.ts'));
    assert.ok(files.length > 50, `only ${files.length} files under src/`);
    // A known edge, so that a parser that silently found nothing would fail here.
    assert.ok(edges.some((e) => e.from === 'src/cli/bin.ts' && e.to === 'src/cli/main.ts'));
  });

  it('places every folder under src/ in a layer', () => {
    const folders = readdirSync(path.join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const { unplaced, missing } = unplacedFolders(LAYERS, folders);
    const problems = [
      ...unplaced.map(
        (f) => `src/${f}/ is in no layer: add it to LAYERS in ${path.basename(import.meta.filename)}`,
      ),
      ...missing.map((f) => `LAYERS names ${f}, but src/${f}/ does not exist`),
    ];
    assert.deepEqual(problems, []);
  });

  it('imports only from its own layer and the layers below', () => {
    const problems = layerViolations(LAYERS, edges);
    const order = LAYERS.map((level) => level.join(' | ')).join(' → ');
    assert.equal(problems.length, 0, `layering violations (${order}):\n  ${problems.join('\n  ')}`);
  });

  it('has no import cycle', () => {
    const cycles = importCycles(edges);
    assert.equal(cycles.length, 0, `import cycles:\n  ${cycles.join('\n  ')}`);
  });

  it('src/transport names no MCP method in a string literal', () => {
    const transport = files.filter((f) => f.startsWith('src/transport/'));
    assert.ok(transport.length > 0);
    const found = transport.flatMap((file) =>
      methodNameLiterals(file, readFileSync(path.join(root, file), 'utf8'), isMethodName).map(
        (hit) => `${file}:${hit.line}: '${hit.text}'`,
      ),
    );
    assert.deepEqual(found, [], 'the transport layer carries messages without knowing their methods');
  });
});
