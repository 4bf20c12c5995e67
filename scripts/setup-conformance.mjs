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

// The 0.2 line (requirement sets per revision, the 2026-07-28 scenarios), in a folder of its own beside 0.1.16,
// whose scenarios the 0.2 line does not all keep: test/conformance/*-0.2.test.ts run it.
const SUITE_02 = {
  dir: join(tools, 'conformance-0.2'),
  spec: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
  version: '0.2.0-alpha.12',
};

if (!installed(NODE.dir, 'node')?.startsWith('22.')) install(NODE);
if (installed(SUITE.dir, '@modelcontextprotocol/conformance') !== SUITE.version) install(SUITE);
if (installed(SUITE_02.dir, '@modelcontextprotocol/conformance') !== SUITE_02.version) install(SUITE_02);

const node = join(NODE.dir, 'node_modules', '.bin', 'node');
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
if (!version.startsWith('v22.')) {
  console.error(`expected Node 22 in ${node}, got ${version}`);
  process.exit(1);
}
/** The suite's entry point in `dir`, from its package.json's bin. */
function entry(dir) {
  const base = join(dir, 'node_modules', '@modelcontextprotocol', 'conformance');
  const pkg = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'));
  return join(base, typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin)[0]);
}
writeFileSync(
  join(tools, 'conformance.json'),
  `${JSON.stringify({ node, conformance: entry(SUITE.dir) })}\n`,
);
writeFileSync(
  join(tools, 'conformance-0.2.json'),
  `${JSON.stringify({ node, conformance: entry(SUITE_02.dir) })}\n`,
);
process.stdout.write(
  `conformance suites ${SUITE.version} and ${SUITE_02.version} and Node ${version} are in .tools/\n`,
);
