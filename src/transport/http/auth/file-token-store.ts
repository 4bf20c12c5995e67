// Tokens kept in one JSON file for the command line (~/.mcpwire/auth.json by default): created with mode
// 0600 in a 0700 folder, written whole to a temporary file and renamed over the old one, so that a crash
// never leaves half a file and no other user can read a token. Its content is never printed. Records are
// keyed by issuer and resource ("ISSUER RESOURCE"), in the order they were last saved; a file of an
// earlier mcpwire, keyed by the resource alone, is read as if it were keyed so.

import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { type AuthRecord, findRecord, storeKey, type TokenStore } from './token-store.js';

export function defaultTokenFile(): string {
  return process.env.MCPWIRE_AUTH_FILE ?? path.join(homedir(), '.mcpwire', 'auth.json');
}

export class FileTokenStore implements TokenStore {
  /** Writes in order: two saves at once must not interleave. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string = defaultTokenFile()) {}

  async load(resource: string, issuer?: string): Promise<AuthRecord | undefined> {
    return findRecord(Object.values(await this.readAll()), resource, issuer);
  }

  save(record: AuthRecord): Promise<void> {
    return this.update((all) => {
      // Deleted first, so that the record moves to the end: the resource's latest.
      const key = storeKey(record.issuer, record.resource);
      delete all[key];
      all[key] = record;
    });
  }

  delete(resource: string, issuer?: string): Promise<void> {
    return this.update((all) => {
      for (const [key, record] of Object.entries(all)) {
        if (record.resource === resource && (issuer === undefined || record.issuer === issuer))
          delete all[key];
      }
    });
  }

  /** Every resource with stored credentials (once, however many issuers). */
  async resources(): Promise<string[]> {
    return [...new Set(Object.values(await this.readAll()).map((record) => record.resource))];
  }

  private async readAll(): Promise<Record<string, AuthRecord>> {
    try {
      const parsed = JSON.parse(await readFile(this.file, 'utf8')) as unknown;
      if (!parsed || typeof parsed !== 'object') return {};
      const all: Record<string, AuthRecord> = {};
      for (const record of Object.values(parsed as Record<string, AuthRecord>)) {
        if (record && typeof record.resource === 'string' && typeof record.issuer === 'string') {
          all[storeKey(record.issuer, record.resource)] = record;
        }
      }
      return all;
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
