// What the server offers: tools with valid schemas, readable resources, gettable prompts, every result
// valid under the schema of the negotiated revision.

import { type Check, type CheckOutcome, ensure, skip, warn } from '../check.js';
import type { Peer } from '../peer.js';
import { jsonSchemaErrors, validateAgainst } from '../spec-schema.js';

const MAX_ITEMS = 25;

export async function listAll(
  peer: Peer,
  method: string,
  key: string,
): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const response = await peer.request(method, cursor === undefined ? {} : { cursor });
    ensure('result' in response, `${method} failed: ${JSON.stringify(response.error)}`);
    const result = response.result as Record<string, unknown>;
    items.push(...((result[key] as Array<Record<string, unknown>>) ?? []));
    cursor = result.nextCursor as string | undefined;
    if (cursor === undefined || items.length >= 500) break;
  }
  return items;
}

function summarize(problems: string[]): CheckOutcome | undefined {
  ensure(problems.length === 0, problems.slice(0, 8).join('\n'));
  return undefined;
}

export const contentChecks: Check[] = [
  {
    id: 'tool-schemas',
    title: 'every tool is valid, with input and output schemas that are valid JSON Schema',
    rule: {
      source: 'MCP 2025-11-25 server/tools',
      text: 'A tool has a name and an inputSchema of type object; outputSchema, if any, is a JSON Schema.',
    },
    hint: 'Give each tool {"type": "object", ...} as inputSchema and check the schemas compile.',
    async run(peer) {
      const init = await peer.initialize();
      if (!(init.capabilities as Record<string, unknown>).tools) return skip('the server declares no tools');
      const revision = String(init.protocolVersion);
      const problems: string[] = [];
      for (const tool of await listAll(peer, 'tools/list', 'tools')) {
        const name = String(tool.name);
        for (const e of await validateAgainst(revision, 'Tool', tool)) problems.push(`tool "${name}": ${e}`);
        const input = tool.inputSchema as Record<string, unknown> | undefined;
        if (input?.type !== 'object') problems.push(`tool "${name}": inputSchema must have "type": "object"`);
        for (const e of await jsonSchemaErrors(input)) problems.push(`tool "${name}" inputSchema: ${e}`);
        if (tool.outputSchema !== undefined) {
          for (const e of await jsonSchemaErrors(tool.outputSchema))
            problems.push(`tool "${name}" outputSchema: ${e}`);
        }
      }
      return summarize(problems);
    },
  },
  {
    id: 'resources-readable',
    title: `listed resources are readable (the first ${MAX_ITEMS})`,
    rule: {
      source: 'MCP 2025-11-25 server/resources',
      text: 'resources/read returns the contents of a listed resource.',
    },
    hint: 'Every URI in resources/list must be readable with resources/read.',
    async run(peer) {
      const init = await peer.initialize();
      if (!(init.capabilities as Record<string, unknown>).resources)
        return skip('the server declares no resources');
      const revision = String(init.protocolVersion);
      const resources = (await listAll(peer, 'resources/list', 'resources')).slice(0, MAX_ITEMS);
      const problems: string[] = [];
      for (const resource of resources) {
        for (const e of await validateAgainst(revision, 'Resource', resource))
          problems.push(`${String(resource.uri)}: ${e}`);
        const response = await peer.request('resources/read', { uri: resource.uri });
        if ('error' in response) {
          problems.push(`${String(resource.uri)} could not be read: ${JSON.stringify(response.error)}`);
          continue;
        }
        for (const e of await validateAgainst(revision, 'ReadResourceResult', response.result)) {
          problems.push(`${String(resource.uri)} read result: ${e}`);
        }
      }
      if (resources.length === 0) return warn('the server declares resources but lists none');
      return summarize(problems);
    },
  },
  {
    id: 'prompts-gettable',
    title: `listed prompts can be got (the first ${MAX_ITEMS})`,
    rule: {
      source: 'MCP 2025-11-25 server/prompts',
      text: 'prompts/get returns the messages of a listed prompt.',
    },
    hint: 'Every prompt in prompts/list must answer prompts/get with its required arguments.',
    async run(peer) {
      const init = await peer.initialize();
      if (!(init.capabilities as Record<string, unknown>).prompts)
        return skip('the server declares no prompts');
      const revision = String(init.protocolVersion);
      const problems: string[] = [];
      const completes = Boolean((init.capabilities as Record<string, unknown>).completions);
      const guessed: string[] = [];
      const unchecked: string[] = [];
      for (const prompt of (await listAll(peer, 'prompts/list', 'prompts')).slice(0, MAX_ITEMS)) {
        const name = String(prompt.name);
        for (const e of await validateAgainst(revision, 'Prompt', prompt))
          problems.push(`prompt "${name}": ${e}`);
        const required = ((prompt.arguments as Array<{ name: string; required?: boolean }>) ?? []).filter(
          (a) => a.required,
        );
        const args: Record<string, string> = {};
        for (const argument of required)
          args[argument.name] = await guessArgument(peer, completes, name, argument.name, args);
        const response = await peer.request('prompts/get', { name, arguments: args });
        const needs = capabilitiesNeeded(response);
        if (needs) {
          // A prompt that must ask the client first (elicitation, sampling) and says so with -32021 is
          // right: the doctor declares no client capabilities, so its messages cannot be checked here.
          unchecked.push(
            `prompt "${name}" needs the client capabilities ${needs}, which the doctor does not declare`,
          );
          continue;
        }
        if ('error' in response) {
          // Arguments we had to guess may simply be wrong for this prompt: that is not the server's fault.
          if (required.length > 0)
            guessed.push(
              `prompt "${name}" refused the guessed arguments ${JSON.stringify(args)}: ${JSON.stringify(response.error)}`,
            );
          else problems.push(`prompt "${name}" failed: ${JSON.stringify(response.error)}`);
          continue;
        }
        for (const e of await validateAgainst(revision, 'GetPromptResult', response.result)) {
          problems.push(`prompt "${name}" result: ${e}`);
        }
      }
      summarize(problems);
      if (guessed.length > 0) return warn(...guessed, ...unchecked);
      return unchecked.length > 0 ? { status: 'pass', details: unchecked } : undefined;
    },
  },
];

/** The capabilities a -32021 answer says the request needs (`elicitation, sampling`), if it is one. */
function capabilitiesNeeded(response: Record<string, unknown>): string | undefined {
  const error = response.error as { code?: unknown; data?: { requiredCapabilities?: unknown } } | undefined;
  const required = error?.code === -32021 ? error.data?.requiredCapabilities : undefined;
  if (!required || typeof required !== 'object') return undefined;
  return Object.keys(required).join(', ') || undefined;
}

/** A value for a required prompt argument: the server's first completion when it offers completions. */
async function guessArgument(
  peer: Peer,
  completes: boolean,
  prompt: string,
  argument: string,
  context: Record<string, string>,
): Promise<string> {
  if (completes) {
    const response = await peer.request('completion/complete', {
      ref: { type: 'ref/prompt', name: prompt },
      argument: { name: argument, value: '' },
      context: { arguments: context },
    });
    const values = (response.result as { completion?: { values?: unknown[] } } | undefined)?.completion
      ?.values;
    if (typeof values?.[0] === 'string') return values[0];
  }
  // An argument named for a URI gets one: the server's first resource if it lists any.
  if (/ur[il]$/i.test(argument)) {
    const listed = await peer.request('resources/list', {});
    const uri = (listed.result as { resources?: Array<{ uri?: unknown }> } | undefined)?.resources?.[0]?.uri;
    return typeof uri === 'string' ? uri : 'https://example.com/';
  }
  return 'test';
}
