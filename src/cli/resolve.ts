// Which tool or prompt a name on the command line means. With one server, its own name; with several
// (--config), SERVER__NAME, or the name alone when exactly one server has it: "there is no tool" for a
// name only one server had sent the user looking for a prefix they could not guess.

import { qualify, type Target } from './target.js';
import { UsageError } from './usage.js';

interface Named {
  /** The host's name, SERVER__NAME. */
  name: string;
  /** The server's own name. */
  originalName: string;
  server: string;
}

/**
 * The item `name` means, or undefined when none has it (each command says that its own way); a name
 * several servers have is a usage error that lists the qualified names to choose from.
 */
export function resolveName<T extends Named>(
  target: Target,
  items: T[],
  name: string,
  kind: 'tool' | 'prompt',
): T | undefined {
  const exact = items.find((item) => item.name === qualify(target, name));
  if (exact) return exact;
  const owners = items.filter((item) => item.originalName === name);
  if (owners.length === 1) return owners[0];
  if (owners.length > 1) {
    throw new UsageError(
      `"${name}" is a ${kind} of several servers: ${owners.map((o) => o.server).join(', ')}`,
      `Name one: ${owners.map((o) => o.name).join(', ')}`,
    );
  }
  return undefined;
}
