// A real McpServer with `count` of everything, for the client's typed methods and its pagination helpers:
// tools echo_<i>, resources memo://note/<i>, templates memo://<i>/{name}, prompts greet_<i>.

import { McpServer } from '../../src/server/server.js';

export const NAMES = ['ada', 'alan', 'grace'];

export function catalogue(count: number, pageSize?: number): McpServer {
  const server = new McpServer({ name: 'catalogue', version: '1.0.0', pageSize });
  for (let i = 0; i < count; i++) {
    server.tool(
      {
        name: `echo_${i}`,
        description: `Echo number ${i}`,
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
      (args) => ({ content: [{ type: 'text', text: `${i}: ${String(args.text)}` }] }),
    );
    server.resource({ uri: `memo://note/${i}`, name: `note ${i}`, mimeType: 'text/plain' }, (uri) => [
      { uri, mimeType: 'text/plain', text: `the text of note ${i}` },
    ]);
    server.resourceTemplate(
      {
        uriTemplate: `memo://${i}/{name}`,
        name: `by name ${i}`,
        complete: { name: (value) => NAMES.filter((n) => n.startsWith(value)) },
      },
      (uri, variables) => [{ uri, text: `hello ${String(variables.name)} from ${i}` }],
    );
    server.prompt(
      {
        name: `greet_${i}`,
        arguments: [{ name: 'who', required: true }],
        complete: { who: (value) => NAMES.filter((n) => n.startsWith(value)) },
      },
      (args) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `greet ${args.who} (${i})` } }],
      }),
    );
  }
  return server;
}
