// Installs what the official conformance suite needs, into .tools/ (ignored by git), once:
// Node 22 from the npm registry (the suite needs it; as a devDependency its binary would shadow the
// project's own `node` in every npm script) and @modelcontextprotocol/conformance itself.
// Runs before the conformance tests (`npm test` and `npm run test:conformance` call it first), not inside
// one, so that a slow or failed install is reported as such. Writes the paths to .tools/conformance.json,
// which test/support/conformance.ts reads: {"node": ".../node", "conformance": ".../conformance.js"}.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tools = join(root, '.tools');
const NODE = { dir: join(tools, 'node22'), spec: 'node@22' };
const SUITE = {
  dir: join(tools, 'conformance'),
  spec: '@modelcontextprotocol/conformance@0.1.16',
  version: '0.1.16',
};

function installed(dir, pkg) {
  const file = join(dir, 'node_modules', pkg, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
}

function install({ dir, spec }) {
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', spec], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

if (!installed(NODE.dir, 'node')?.startsWith('22.')) install(NODE);
if (installed(SUITE.dir, '@modelcontextprotocol/conformance') !== SUITE.version) install(SUITE);

const node = join(NODE.dir, 'node_modules', '.bin', 'node');
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
if (!version.startsWith('v22.')) {
  console.error(`expected Node 22 in ${node}, got ${version}`);
  process.exit(1);
}
const pkg = JSON.parse(
  readFileSync(
    join(SUITE.dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json'),
    'utf8',
  ),
);
const bin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin)[0];
const conformance = join(SUITE.dir, 'node_modules', '@modelcontextprotocol', 'conformance', bin);
writeFileSync(join(tools, 'conformance.json'), `${JSON.stringify({ node, conformance })}\n`);
process.stdout.write(`conformance suite ${SUITE.version} and Node ${version} are in .tools/\n`);
