// Builds the inspector's page (page/) into dist/inspect-page: one bundle with esbuild (preact included),
// the stylesheet and the HTML. Nothing is fetched from a CDN at run time; the package carries it all.

import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'dist', 'inspect-page');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [path.join(root, 'page', 'src', 'main.tsx')],
  outfile: path.join(out, 'app.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  // Like the rest of dist: a map with its sources inlined, so that the page can be debugged as written.
  sourcemap: 'linked',
  sourcesContent: true,
  logLevel: 'warning',
});
for (const file of ['index.html', 'app.css'])
  copyFileSync(path.join(root, 'page', file), path.join(out, file));
