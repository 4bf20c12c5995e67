// Tab completion in the shell: commands, then tool, prompt and resource names, then argument names.

import type { McpHost } from '../../host/host.js';

export const SHELL_COMMANDS = [
  'call',
  'exit',
  'get',
  'help',
  'json',
  'prompts',
  'read',
  'resources',
  'restart',
  'servers',
  'tools',
];

export type DisplayName = (qualified: string, original: string) => string;

export function complete(line: string, host: McpHost, name: DisplayName): [string[], string] {
  const words = line.split(/\s+/);
  const current = words[words.length - 1] ?? '';
  // A whole word is completed with the space after it; "key=" waits for its value.
  const pick = (candidates: string[]): [string[], string] => [
    candidates
      .filter((c) => c.startsWith(current))
      .sort()
      .map((c) => (c.endsWith('=') ? c : `${c} `)),
    current,
  ];
  if (words.length <= 1) return pick(SHELL_COMMANDS);
  const [command, subject] = words;
  if (words.length === 2) {
    if (command === 'call') return pick(host.tools().map((t) => name(t.name, t.originalName)));
    if (command === 'get') return pick(host.prompts().map((p) => name(p.name, p.originalName)));
    if (command === 'read') return pick(host.resources().map((r) => r.uri));
    if (command === 'json') return pick(['on', 'off']);
    if (command === 'restart') return pick(host.status().map((s) => s.name));
    return [[], current];
  }
  if (command === 'call') {
    const tool = host.tools().find((t) => name(t.name, t.originalName) === subject);
    const properties = Object.keys((tool?.inputSchema.properties ?? {}) as object);
    const given = new Set(words.slice(2, -1).map((w) => w.split('=')[0]));
    return pick(properties.filter((p) => !given.has(p)).map((p) => `${p}=`));
  }
  if (command === 'get') {
    const prompt = host.prompts().find((p) => name(p.name, p.originalName) === subject);
    return pick((prompt?.arguments ?? []).map((a) => `${a.name}=`));
  }
  return [[], current];
}
