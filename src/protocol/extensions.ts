// Extensions (SEP-2133): optional additions to the protocol, each named by an identifier of the form
// `{vendor-prefix}/{name}` and declared in `capabilities.extensions` with its settings ({} for none). Both
// sides declare what they support; an extension is in use for a request when both declared it. Which
// revisions an extension is defined for is the extension's business: the tasks extension, for one, does
// not exist under the handshake revisions (SEP-2663, "Backward Compatibility").

import type { ClientCapabilities, ServerCapabilities } from './types.js';

export type ExtensionSettings = Record<string, unknown>;
export type Extensions = Readonly<Record<string, ExtensionSettings>>;

/** The official extensions mcpwire implements. */
export const Extension = {
  /** Tasks: a tools/call answered with a task handle, polled with tasks/get (SEP-2663). */
  Tasks: 'io.modelcontextprotocol/tasks',
  /** MCP Apps: interactive HTML resources linked to tools (SEP-1865). */
  Ui: 'io.modelcontextprotocol/ui',
} as const;

/** Extensions defined for the stateless revision only: the handshake era neither offers nor uses them. */
export const STATELESS_ONLY_EXTENSIONS: readonly string[] = [Extension.Tasks];

const NO_EXTENSIONS: Extensions = Object.freeze({});

/**
 * Checks an extension identifier: a prefix of dot-separated labels (a reversed domain name), a slash and
 * a name, as _meta keys are named but with the prefix mandatory.
 */
export function checkExtensionId(id: string): void {
  const label = '[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?';
  const pattern = new RegExp(`^${label}(\\.${label})*/[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`);
  if (!pattern.test(id)) {
    throw new TypeError(
      `extension identifier "${id}" must be "{vendor-prefix}/{name}", e.g. "com.example/my-extension"`,
    );
  }
}

/** The extensions a capabilities object declares; anything malformed counts as none. */
export function extensionsOf(capabilities: ClientCapabilities | ServerCapabilities | undefined): Extensions {
  const declared = capabilities?.extensions;
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared)) return NO_EXTENSIONS;
  const found: Record<string, ExtensionSettings> = {};
  for (const [id, settings] of Object.entries(declared)) {
    if (typeof settings === 'object' && settings !== null && !Array.isArray(settings)) found[id] = settings;
  }
  return found;
}

/**
 * The extensions both sides declared, each with the client's settings (what the server offers it knows
 * already). `excluded` lists the extensions the request's revision does not define.
 */
export function negotiateExtensions(
  server: Extensions,
  client: Extensions,
  excluded: readonly string[] = [],
): Extensions {
  let negotiated: Record<string, ExtensionSettings> | undefined;
  for (const id of Object.keys(client)) {
    if (Object.hasOwn(server, id) && !excluded.includes(id)) {
      negotiated ??= {};
      negotiated[id] = client[id]!;
    }
  }
  return negotiated ?? NO_EXTENSIONS;
}

/** Capabilities without the extensions a revision does not define (and without an emptied map). */
export function withoutExtensions<C extends ClientCapabilities | ServerCapabilities>(
  capabilities: C,
  excluded: readonly string[],
): C {
  const declared = capabilities.extensions;
  if (!declared || !excluded.some((id) => Object.hasOwn(declared, id))) return capabilities;
  const kept = Object.fromEntries(Object.entries(declared).filter(([id]) => !excluded.includes(id)));
  const copy = { ...capabilities };
  if (Object.keys(kept).length > 0) copy.extensions = kept;
  else delete copy.extensions;
  return copy;
}
