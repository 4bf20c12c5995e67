// What the command line knows about the installed package. It lives apart from main.ts because the
// commands need it and main.ts loads the commands: importing it from main.ts made a cycle.

import { readFileSync } from 'node:fs';

export function packageVersion(): string {
  // Resolved from this file, so it holds for src/cli (tsx) and dist/cli (built) alike.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
