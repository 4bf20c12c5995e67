// Eras learned per server, for the life of this process (keyed by the host's name for the server), so a
// reconnect skips the probe that already failed once.

import type { EraName } from './era.js';

const remembered = new Map<string, EraName>();

export function rememberedEra(key: string | undefined): EraName | undefined {
  return key === undefined ? undefined : remembered.get(key);
}

export function rememberEra(key: string | undefined, era: EraName): void {
  if (key !== undefined) remembered.set(key, era);
}
