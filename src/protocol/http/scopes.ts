// Which OAuth scopes an MCP message needs, from a server's declaration per method and per tool. The
// HTTP endpoint knows no method names, so the resource server asks this for each POST body; a batch
// needs what any of its requests needs.

import { classify } from '../../jsonrpc/messages.js';
import { Method } from '../methods.js';

export interface ScopeRequirements {
  /** Scopes a request of this method needs (`"resources/read": ["files:read"]`). */
  methods?: Readonly<Record<string, readonly string[]>>;
  /** Scopes a tools/call of this tool needs, on top of what tools/call needs (`delete_file: ["files:write"]`). */
  tools?: Readonly<Record<string, readonly string[]>>;
}

/** A function from a POST body to the scopes it needs (none when nothing is declared for it). */
export function scopesFor(requirements: ScopeRequirements): (body: unknown) => readonly string[] {
  const { methods = {}, tools = {} } = requirements;
  return (body) => {
    const needed = new Set<string>();
    for (const item of Array.isArray(body) ? body : [body]) {
      const c = classify(item);
      if (c.kind !== 'request') continue;
      for (const scope of methods[c.message.method] ?? []) needed.add(scope);
      if (c.message.method === Method.ToolsCall) {
        const name = (c.message.params as { name?: unknown } | undefined)?.name;
        if (typeof name === 'string') for (const scope of tools[name] ?? []) needed.add(scope);
      }
    }
    return [...needed];
  };
}
