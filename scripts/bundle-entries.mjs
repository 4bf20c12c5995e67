// Bundles the package's entry points after tsc: the library's (dist/index.js, dist/jsonrpc.js,
// dist/server.js) in layers of a file each (scripts/bundle-library.mjs), and the command line's into one
// script. Loading ~100 small ES modules costs a server more at start-up than running them (a resolve, a
// stat, a read and a compile each; issue 21), so `import { McpServer } from 'mcpwire'` or `mcpwire serve`
// loads a few files instead. What a first answer does not need stays behind dynamic imports (HTTP,
// Redis, each CLI command). The per-module files tsc wrote stay: the forked SQLite query process runs one,
// and the bundles' source maps point back through them to src/.

import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleLibrary } from './bundle-library.mjs';

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

// The library, in layers (scripts/bundle-library.mjs).
await bundleLibrary(root, common);

// The CLI: one CommonJS script, dist/cli/mcpwire.cjs, which bin/mcpwire.js runs with V8's code cache
// (src/cli/code-cache.ts): Node 20 caches no ES module's compiled code, and compiling the CLI's modules
// was most of `mcpwire serve`'s start-up. Its first line is the SHA-256 of the script (with zeros in its
// place), which a cache must have been made for. What the CLI imports when it needs it stays lazy:
// esbuild runs such a module when it is first imported. A module that finds a file from its own place
// (import.meta.url: package.json, the inspector's page, the SQLite query process, the schemas) is given
// its own place back, so what it finds is where it was before bundling.
const cli = path.join(dist, 'cli');
const script = path.join(cli, 'mcpwire.cjs');
const UNSTAMPED = '0'.repeat(64);
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
          `new URL(${JSON.stringify(relative)}, __scriptUrl).href`,
        ),
        loader: 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};
const built = await build({
  ...common,
  splitting: false,
  format: 'cjs',
  entryPoints: [path.join(cli, 'bin.js')],
  outfile: script,
  write: false,
  plugins: [ownPlace],
  // Read whole at every start: a third smaller without its blanks and comments (names stay, for stack
  // traces; the source map leads back to src/).
  minifyWhitespace: true,
  minifySyntax: true,
  // The stamp's place is kept by a placeholder of its length: the source map's lines stay right.
  // __import is the loader's import() (see below); run by node directly, the script has its own.
  banner: {
    js: [
      `// mcpwire-script sha256=${UNSTAMPED}`,
      '"use strict";',
      'var __scriptUrl = require("node:url").pathToFileURL(__filename).href;',
      'var __importPackage = typeof __import === "function" ? __import : (specifier) => import(specifier);',
    ].join('\n'),
  },
  metafile: true,
  // import.meta.resolve is left in the SQLite query pool, which calls it only when run from src/ by tsx.
  logOverride: { 'empty-import-meta': 'silent' },
});
for (const { path: file, contents } of built.outputFiles) {
  if (file !== script) {
    await writeFile(file, contents);
    continue;
  }
  // The script's import() of a package (ajv, jose, redis...) goes through the loader's: V8 does not keep,
  // with a code cache, what a script needs to run import() itself (Node 20 then throws "A dynamic import
  // callback was not specified"), and vm's own way of allowing it is experimental and says so on stderr.
  let text = Buffer.from(contents).toString('utf8');
  const packages = new Set(
    Object.values(built.metafile.outputs)
      .flatMap((output) => output.imports)
      .filter((imported) => imported.external && imported.kind === 'dynamic-import')
      .map((imported) => imported.path),
  );
  for (const specifier of packages) {
    text = text.replaceAll(
      `import(${JSON.stringify(specifier)})`,
      `__importPackage(${JSON.stringify(specifier)})`,
    );
  }
  // The banner's own import() aside, as the script runs without the loader.
  const left = /\bimport\((?!specifier\))[^)]{0,40}/.exec(text);
  if (left)
    throw new Error(`dist/cli/mcpwire.cjs still calls import() itself (${left[0]}): make it a package's`);
  const hash = createHash('sha256').update(text).digest('hex');
  await writeFile(file, text.replace(UNSTAMPED, hash));
}
// The loader bin/mcpwire.js requires, as CommonJS too (tsc wrote it as an ES module).
await build({
  ...common,
  bundle: false,
  splitting: false,
  format: 'cjs',
  entryPoints: [path.join(cli, 'code-cache.js')],
  outfile: path.join(cli, 'code-cache.cjs'),
});
