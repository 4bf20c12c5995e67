// MCP Apps on the server (io.modelcontextprotocol/ui): an app's HTML served as a ui:// resource with the
// app MIME type and its settings in _meta.ui, and the tool link checked where a tool is defined. McpServer
// offers these as appResource() and a tool's `ui` field; the extension is declared with the first app.

import {
  APP_MIME_TYPE,
  type AppResourceSettings,
  type AppToolLink,
  type AppToolVisibility,
  isAppUri,
  LEGACY_RESOURCE_URI_META,
} from '../protocol/apps.js';
import type { RequestContext } from '../protocol/context.js';
import type { Meta, ReadResourceResult, Resource, TextResourceContents } from '../protocol/types.js';

export interface AppResourceDefinition {
  /** ui://server/app.html */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  /** The app: one HTML document (inline its scripts and styles, or list their origins in `ui.csp`). */
  html: string | ((context: RequestContext) => string | Promise<string>);
  /** Rendering and security settings, sent as _meta.ui on the listing and the contents. */
  ui?: AppResourceSettings;
  _meta?: Meta;
}

/** The resource and its reader for McpServer.resource(). */
export function defineAppResource(definition: AppResourceDefinition): {
  resource: Resource;
  read: (uri: string, context: RequestContext) => Promise<ReadResourceResult>;
} {
  if (!isAppUri(definition.uri)) {
    throw new TypeError(`app resource "${definition.uri}": an app's URI must start with ui://`);
  }
  const meta: Meta | undefined =
    definition.ui === undefined ? definition._meta : { ...definition._meta, ui: definition.ui };
  const resource: Resource = { uri: definition.uri, name: definition.name, mimeType: APP_MIME_TYPE };
  if (definition.title !== undefined) resource.title = definition.title;
  if (definition.description !== undefined) resource.description = definition.description;
  if (meta !== undefined) resource._meta = meta;
  const { html } = definition;
  return {
    resource,
    async read(uri, context) {
      const text = typeof html === 'string' ? html : await html(context);
      const contents: TextResourceContents = { uri, mimeType: APP_MIME_TYPE, text };
      if (definition.ui !== undefined) contents._meta = { ui: definition.ui };
      return { contents: [contents] };
    },
  };
}

const VISIBILITIES: ReadonlySet<string> = new Set<AppToolVisibility>(['model', 'app']);

/**
 * A tool's _meta with its app link: _meta.ui, and the flat key older hosts read. `visibility: ['app']`
 * marks a tool only the app may call (hosts keep it from the model).
 */
export function linkToolMeta(tool: string, link: AppToolLink, meta: Meta | undefined): Meta {
  if (link.resourceUri !== undefined && !isAppUri(link.resourceUri)) {
    throw new TypeError(`tool "${tool}": ui.resourceUri must be a ui:// URI, not "${link.resourceUri}"`);
  }
  if (link.visibility !== undefined) {
    const bad = link.visibility.filter((v) => !VISIBILITIES.has(v));
    if (bad.length > 0 || link.visibility.length === 0) {
      throw new TypeError(
        `tool "${tool}": ui.visibility lists "model" and/or "app", not ${JSON.stringify(link.visibility)}`,
      );
    }
  }
  const linked: Meta = { ...meta, ui: { ...link } };
  if (link.resourceUri !== undefined) linked[LEGACY_RESOURCE_URI_META] = link.resourceUri;
  return linked;
}
