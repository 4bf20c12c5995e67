// Bundles the package's entry points after tsc: the library's (dist/index.js, dist/jsonrpc.js,
// dist/server.js) and the command line's (dist/cli/bin.js), each into one module plus shared chunks. Loading ~100 small ES modules
// costs a server more at start-up than running them (a resolve, a stat, a read and a compile each; issue
// 21), so `import { McpServer } from 'mcpwire'` or `mcpwire serve` loads a few files instead. What a first
// answer does not need stays behind dynamic imports, which become chunks of their own (each CLI command,
// HTTP, Redis). The per-module files tsc wrote stay: the forked SQLite query process runs one, and the
// bundles' source maps point back through them to src/.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');

const common = {
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Dependencies stay the user's to install and dedupe (zod, ajv, jose, redis...): only mcpwire is bundled.
  packages: 'external',
  // Maps with their sources inlined, as tsc's are: esbuild follows tsc's maps back to src/.
  sourcemap: 'linked',
  sourcesContent: true,
  legalComments: 'none',
  logLevel: 'warning',
};

// The library: its entries share their chunks, so a class is the same class whichever entry it came from.
await build({
  ...common,
  entryPoints: ['index.js', 'jsonrpc.js', 'server.js'].map((file) => path.join(dist, file)),
  outdir: dist,
  chunkNames: 'chunks/[name]-[hash]',
});

// The CLI: every output file lands in dist/cli/, beside bin.js. A module that finds a file from its own
// place (import.meta.url: package.json, the inspector's page, the SQLite query process, the schemas) is
// given its own place back, so what it finds is where it was before bundling.
const cli = path.join(dist, 'cli');
const ownPlace = {
  name: 'own-import-meta-url',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.js$/ }, async (args) => {
      const contents = await readFile(args.path, 'utf8');
      if (!contents.includes('import.meta.url')) return undefined;
      const relative = path.relative(cli, args.path).split(path.sep).join('/');
      return {
        contents: contents.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(relative)}, import.meta.url).href`,
        ),
        loader: 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};
await build({
  ...common,
  entryPoints: [path.join(cli, 'bin.js')],
  outdir: cli,
  chunkNames: '[name]-[hash]',
  plugins: [ownPlace],
});
