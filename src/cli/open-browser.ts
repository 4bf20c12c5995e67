// Opening an address in the person's browser: login's authorization page, inspect's page.

import { spawn } from 'node:child_process';

/** Opens a URL in the person's browser, if there is one; quietly does nothing otherwise. */
export function openBrowser(url: string): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No opener: the address is printed above.
  }
}
