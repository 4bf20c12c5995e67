// A server whose tools, resources and prompts match the 2026-07-28 example messages of the specification,
// with a tool for each multi round-trip case.

import { McpServer } from '../../src/server/server.js';

export function exampleServer(): McpServer {
  const server = new McpServer({
    name: 'examples',
    version: '1.0.0',
    instructions: 'Weather and code review.',
  });
  server.tool(
    {
      name: 'get_weather',
      description: 'The weather at a location',
      inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
    },
    (args) => ({ content: [{ type: 'text', text: `Sunny in ${String(args.location)}` }] }),
  );
  server.tool({ name: 'ask_name', description: 'Asks the user for a name' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)} (${answer.action})` }] };
  });
  server.tool({ name: 'two_questions', description: 'Samples, then lists roots' }, async (_args, ctx) => {
    const sampled = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 5,
    });
    const { roots } = await ctx.listRoots();
    const text = sampled.content.type === 'text' ? sampled.content.text : '?';
    return { content: [{ type: 'text', text: `${text}; ${roots.length} roots` }] };
  });
  server.tool({ name: 'chatty', description: 'Logs at two levels' }, (_args, ctx) => {
    ctx.log('debug', 'a debug line');
    ctx.log('warning', 'a warning line');
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.resource({ uri: 'file:///project/src/main.rs', name: 'main.rs', mimeType: 'text/x-rust' }, (uri) => [
    { uri, mimeType: 'text/x-rust', text: 'fn main() {}' },
  ]);
  server.prompt(
    {
      name: 'code_review',
      description: 'Review code',
      arguments: [
        { name: 'code', required: true },
        { name: 'language', required: false },
      ],
      complete: { language: (value) => ['python', 'pytorch', 'rust'].filter((l) => l.startsWith(value)) },
    },
    (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review: ${args.code}` } }] }),
  );
  return server;
}
