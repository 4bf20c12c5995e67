// Installs the Debian packages that tests start themselves (Redis, HAProxy, Chromium…), listed in
// scripts/system-packages.json as { "package": NAME, "binary": PATH-OR-NAME }. Runs before the tests
// (`npm test` calls it), not inside one, so that a slow or failed install is reported as such.
// As root it runs `apt-get update` once and installs what is missing; otherwise it stops with the exact
// command to run. A test that needs one of these never skips when it is missing: it fails, naming this
// script.

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { packages } = JSON.parse(readFileSync(join(root, 'scripts', 'system-packages.json'), 'utf8'));

function found(binary) {
  if (binary.includes('/')) return spawnSync('test', ['-x', binary]).status === 0;
  return spawnSync('sh', ['-c', `command -v "${binary}"`], { stdio: 'ignore' }).status === 0;
}

const missing = packages.filter((entry) => !found(entry.binary)).map((entry) => entry.package);
if (missing.length === 0) {
  if (packages.length > 0) {
    process.stdout.write(`system packages present: ${packages.map((p) => p.package).join(', ')}\n`);
  }
  process.exit(0);
}

const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
if (process.getuid?.() !== 0) {
  process.stderr.write(
    `The tests need these Debian packages: ${missing.join(', ')}.\nInstall them as root, then run the tests again:\n  ${command}\n`,
  );
  process.exit(1);
}
process.stdout.write(`installing system packages for the tests: ${missing.join(', ')}\n`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env,
});
const still = packages.filter((entry) => !found(entry.binary)).map((entry) => entry.package);
if (still.length > 0) {
  process.stderr.write(`installed, yet still missing: ${still.join(', ')}\n`);
  process.exit(1);
}
