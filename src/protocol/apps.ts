// MCP Apps (io.modelcontextprotocol/ui, SEP-1865): a server offers interactive HTML as a resource under
// the ui:// scheme with the app MIME type, and links a tool to it in the tool's _meta.ui. This module
// holds the names and the reading of a link, for the server's helpers and for the doctor alike.

/** The MIME type of an app's HTML resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The URI scheme of app resources. */
export const APP_URI_SCHEME = 'ui:';
/** The flat key older hosts read a tool's link from, set next to _meta.ui.resourceUri. */
export const LEGACY_RESOURCE_URI_META = 'ui/resourceUri';

/** Who may call a tool: the model, the app (from its own server), or both (the default). */
export type AppToolVisibility = 'model' | 'app';

/** A tool's link to its app: _meta.ui. */
export interface AppToolLink {
  resourceUri?: string;
  visibility?: AppToolVisibility[];
}

/** An app resource's rendering and security settings: _meta.ui of the resource and its contents. */
export interface AppResourceSettings {
  /** Origins the app may reach, for the host's Content-Security-Policy. */
  csp?: {
    connectDomains?: string[];
    resourceDomains?: string[];
    frameDomains?: string[];
    baseUriDomains?: string[];
  };
  /** Browser permissions the app asks for ({} each): camera, microphone, geolocation, clipboardWrite. */
  permissions?: Record<string, Record<string, never>>;
  /** A dedicated origin for the app's sandbox. */
  domain?: string;
  /** Whether the app prefers a visible border. */
  prefersBorder?: boolean;
}

/** The link of a tool's _meta, if it has one: _meta.ui, or the older flat key. */
export function appLinkOf(tool: { _meta?: unknown }): AppToolLink | undefined {
  const meta = tool._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const ui = (meta as Record<string, unknown>).ui;
  const legacy = (meta as Record<string, unknown>)[LEGACY_RESOURCE_URI_META];
  if (typeof ui === 'object' && ui !== null) {
    const link = { ...(ui as AppToolLink) };
    if (link.resourceUri === undefined && typeof legacy === 'string') link.resourceUri = legacy;
    return link;
  }
  return typeof legacy === 'string' ? { resourceUri: legacy } : undefined;
}

/** Whether a URI names an app resource. */
export function isAppUri(uri: unknown): uri is string {
  return typeof uri === 'string' && uri.startsWith(`${APP_URI_SCHEME}//`);
}

/** Whether a MIME type is the app type (parameters compared without spaces or case). */
export function isAppMimeType(mimeType: unknown): boolean {
  return typeof mimeType === 'string' && mimeType.replace(/\s+/g, '').toLowerCase() === APP_MIME_TYPE;
}
