// The environment a spawned server gets by default: enough to find programs and a home directory, and
// none of the parent's secrets. Users add what their server needs through the `env` option.

import { isWindows } from './process-tree.js';

const POSIX_KEYS = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR'];
const WINDOWS_KEYS = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'PROGRAMFILES',
  'COMSPEC',
];

export function defaultEnvironment(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of isWindows ? WINDOWS_KEYS : POSIX_KEYS) {
    const value = source[key];
    // Exported shell functions look like "() { ... }" and are no use to a server.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return env;
}
