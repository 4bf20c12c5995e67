// Tokens kept in one JSON file for the command line (~/.mcpwire/auth.json by default): created with mode
// 0600 in a 0700 folder, written whole to a temporary file and renamed over the old one, so that a crash
// never leaves half a file and no other user can read a token. Its content is never printed.

import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { AuthRecord, TokenStore } from './token-store.js';

export function defaultTokenFile(): string {
  return process.env.MCPWIRE_AUTH_FILE ?? path.join(homedir(), '.mcpwire', 'auth.json');
}

export class FileTokenStore implements TokenStore {
  /** Writes in order: two saves at once must not interleave. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string = defaultTokenFile()) {}

  async load(resource: string): Promise<AuthRecord | undefined> {
    return (await this.readAll())[resource];
  }

  save(record: AuthRecord): Promise<void> {
    return this.update((all) => {
      all[record.resource] = record;
    });
  }

  delete(resource: string): Promise<void> {
    return this.update((all) => {
      delete all[resource];
    });
  }

  /** Every resource with stored credentials. */
  async resources(): Promise<string[]> {
    return Object.keys(await this.readAll());
  }

  private async readAll(): Promise<Record<string, AuthRecord>> {
    try {
      const parsed = JSON.parse(await readFile(this.file, 'utf8')) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, AuthRecord>) : {};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(`the token file ${this.file} cannot be read: ${(error as Error).message}`);
    }
  }

  private update(change: (all: Record<string, AuthRecord>) => void): Promise<void> {
    const next = this.chain.then(async () => {
      const all = await this.readAll();
      change(all);
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const temporary = `${this.file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, this.file);
    });
    this.chain = next.catch(() => {});
    return next;
  }
}
