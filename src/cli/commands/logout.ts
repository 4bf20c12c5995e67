// `mcpwire logout URL`: forgets what `mcpwire login URL` stored (tokens and the client registration).

import { canonicalResource } from '../../transport/http/auth/oauth-client.js';
import { tokenStore } from '../target.js';
import { UsageError } from '../usage.js';
import { report } from './common.js';

export const usage = `Usage: mcpwire logout URL | --all

Forgets the tokens "mcpwire login URL" stored for that server (--all: for every server).`;

export async function run(argv: string[]): Promise<number> {
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(`${usage}\n`);
      return 0;
    }
    const store = tokenStore();
    if (argv.length === 1 && argv[0] === '--all') {
      const all = await store.resources();
      for (const resource of all) await store.delete(resource);
      process.stderr.write(`Logged out of ${all.length} server${all.length === 1 ? '' : 's'}.\n`);
      return 0;
    }
    if (argv.length !== 1 || argv[0]!.startsWith('-')) {
      throw new UsageError('which server? e.g. mcpwire logout https://mcp.example.com/mcp (or --all)');
    }
    let resource: string;
    try {
      resource = canonicalResource(argv[0]!);
    } catch {
      throw new UsageError(`${JSON.stringify(argv[0])} is not a URL`);
    }
    const known = await store.load(resource);
    await store.delete(resource);
    process.stderr.write(known ? `Logged out of ${resource}.\n` : `There was no login for ${resource}.\n`);
    return 0;
  } catch (error) {
    return report(error);
  }
}
