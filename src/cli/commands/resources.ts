// `mcpwire resources`: list resources and resource templates.

import { colour, printJson } from '../format.js';
import { readyClients } from '../target.js';
import { runClientCommand, TARGET_USAGE } from './common.js';

export const usage = `Usage: mcpwire resources [--json] (-- COMMAND [ARGS] | --config FILE [--server NAME])

Lists every resource (following pagination to the end) and every resource template.

${TARGET_USAGE}`;

export function run(argv: string[]): Promise<number> {
  return runClientCommand(
    argv,
    {},
    async (target, { json }) => {
      const resources = target.host.resources();
      const templates = (
        await Promise.all(
          readyClients(target).map(async ({ name, client }) => {
            if (!client.serverCapabilities?.resources) return [];
            return (await client.listAllResourceTemplates()).map((t) => ({ ...t, server: name }));
          }),
        )
      ).flat();
      if (json) {
        printJson({ resources, resourceTemplates: templates });
        return 0;
      }
      const prefix = (server: string) => (target.single ? '' : colour.dim(`${server}: `));
      for (const r of resources) {
        process.stdout.write(
          `${prefix(r.server)}${r.uri}  ${colour.dim(`${r.name}${r.mimeType ? ` (${r.mimeType})` : ''}`)}\n`,
        );
      }
      for (const t of templates) {
        process.stdout.write(
          `${prefix(t.server)}${colour.cyan(t.uriTemplate)}  ${colour.dim(`template: ${t.name}`)}\n`,
        );
      }
      if (resources.length === 0 && templates.length === 0) process.stdout.write('(no resources)\n');
      return 0;
    },
    { lists: ['resources'] },
  );
}
