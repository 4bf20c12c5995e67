// MCP Apps (io.modelcontextprotocol/ui): every tool's link names a ui:// resource that exists, can be
// read and is HTML of the app MIME type; every app resource is linked by a tool; visibility says only
// "model" and "app"; and a server with apps offers the extension.

import { APP_MIME_TYPE, appLinkOf, isAppMimeType, isAppUri } from '../../protocol/apps.js';
import { Extension } from '../../protocol/extensions.js';
import { type Check, ensure, skip, warn } from '../check.js';
import { listAll } from './content.js';

export const appChecks: Check[] = [
  {
    id: 'apps',
    title: 'MCP Apps: linked ui:// resources exist, are readable and are app HTML; every app is linked',
    rule: {
      source: 'MCP Apps (io.modelcontextprotocol/ui, SEP-1865)',
      text: `A tool's _meta.ui.resourceUri names a ui:// resource the server serves as ${APP_MIME_TYPE}; visibility is "model" and/or "app".`,
    },
    hint: 'Serve each app as a ui:// resource of type text/html;profile=mcp-app and link tools to it with _meta.ui.resourceUri.',
    async run(peer) {
      const init = await peer.initialize();
      const capabilities = init.capabilities as Record<string, unknown>;
      const tools = capabilities.tools ? await listAll(peer, 'tools/list', 'tools') : [];
      const resources = capabilities.resources ? await listAll(peer, 'resources/list', 'resources') : [];
      const apps = resources.filter((r) => isAppUri(r.uri));
      const linked = tools.flatMap((tool) => {
        const link = appLinkOf(tool);
        return link ? [{ name: String(tool.name), link }] : [];
      });
      if (apps.length === 0 && linked.length === 0) return skip('the server offers no MCP Apps');
      const problems: string[] = [];
      const notes: string[] = [];
      const read = new Map<string, string | undefined>();
      const readApp = async (uri: string): Promise<string | undefined> => {
        if (read.has(uri)) return read.get(uri);
        const response = await peer.request('resources/read', { uri });
        let problem: string | undefined;
        if ('error' in response) problem = `could not be read: ${JSON.stringify(response.error)}`;
        else {
          const contents = (response.result as { contents?: Array<Record<string, unknown>> }).contents ?? [];
          const first = contents[0];
          if (!first) problem = 'was read with no contents';
          else if (!isAppMimeType(first.mimeType))
            problem = `is ${JSON.stringify(first.mimeType ?? 'untyped')}, not ${APP_MIME_TYPE}`;
          else if (typeof first.text !== 'string' && typeof first.blob !== 'string')
            problem = 'has neither text nor blob';
        }
        read.set(uri, problem);
        return problem;
      };
      for (const { name, link } of linked) {
        const uri = link.resourceUri;
        if (link.visibility !== undefined) {
          const bad = Array.isArray(link.visibility)
            ? link.visibility.filter((v) => v !== 'model' && v !== 'app')
            : [link.visibility];
          if (bad.length > 0)
            problems.push(
              `tool "${name}": visibility ${JSON.stringify(link.visibility)} has ${JSON.stringify(bad)}`,
            );
        }
        if (uri === undefined) continue;
        if (!isAppUri(uri)) {
          problems.push(`tool "${name}" links ${JSON.stringify(uri)}, which is not a ui:// URI`);
          continue;
        }
        const problem = await readApp(uri);
        if (problem) problems.push(`tool "${name}" links ${uri}, which ${problem}`);
      }
      for (const app of apps) {
        const uri = String(app.uri);
        if (app.mimeType !== undefined && !isAppMimeType(app.mimeType))
          problems.push(`${uri} is listed as ${JSON.stringify(app.mimeType)}, not ${APP_MIME_TYPE}`);
        const problem = await readApp(uri);
        if (problem) problems.push(`${uri} ${problem}`);
        if (!linked.some(({ link }) => link.resourceUri === uri)) notes.push(`${uri} is linked by no tool`);
      }
      ensure(problems.length === 0, problems.slice(0, 8).join('\n'));
      const extensions = capabilities.extensions as Record<string, unknown> | undefined;
      if (!extensions || !(Extension.Ui in extensions))
        notes.push(`the server does not offer the "${Extension.Ui}" extension in its capabilities`);
      return notes.length > 0 ? warn(...notes) : undefined;
    },
  },
];
