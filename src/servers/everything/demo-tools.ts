// The classic demo tools of the reference "everything" server, so that people and benchmarks can use
// this server the way they use that one.

import { LOGGING_LEVELS } from '../../protocol/logging.js';
import type { McpServer } from '../../server/server.js';
import { delay, RED_PIXEL_PNG } from './assets.js';

export function registerDemoTools(server: McpServer): void {
  server.tool(
    {
      name: 'echo',
      title: 'Echo',
      description: 'Echoes back the message it is given.',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'Message to echo' } },
        required: ['message'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => ({ content: [{ type: 'text', text: `Echo: ${String(args.message)}` }] }),
  );

  server.tool(
    {
      name: 'add',
      title: 'Add',
      description: 'Adds two numbers.',
      inputSchema: {
        type: 'object',
        properties: {
          a: { type: 'number', description: 'First number' },
          b: { type: 'number', description: 'Second number' },
        },
        required: ['a', 'b'],
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => {
      const sum = Number(args.a) + Number(args.b);
      return {
        content: [{ type: 'text', text: `The sum of ${args.a} and ${args.b} is ${sum}.` }],
        structuredContent: { sum },
      };
    },
  );

  server.tool(
    {
      name: 'longRunningOperation',
      title: 'Long-running operation',
      description: 'Runs for a while and reports progress after every step; cancel it to stop early.',
      inputSchema: {
        type: 'object',
        properties: {
          duration: { type: 'number', default: 10, minimum: 0, description: 'How long it runs, in seconds' },
          steps: { type: 'integer', default: 5, minimum: 1, description: 'How many steps it reports' },
        },
      },
    },
    async (args, ctx) => {
      const duration = typeof args.duration === 'number' ? args.duration : 10;
      const steps = typeof args.steps === 'number' ? args.steps : 5;
      for (let step = 1; step <= steps; step++) {
        try {
          await delay((duration * 1000) / steps, ctx.signal);
        } catch (error) {
          // Said on the request's own stream, since a cancelled request gets no answer: a client (or a
          // test of a fleet) sees that the cancellation reached the instance running it.
          ctx.log('notice', `longRunningOperation cancelled after step ${step - 1} of ${steps}`);
          throw error;
        }
        ctx.progress(step, steps, `step ${step} of ${steps}`);
      }
      return {
        content: [
          {
            type: 'text',
            text: `Long running operation completed. Duration: ${duration} seconds, Steps: ${steps}.`,
          },
        ],
      };
    },
  );

  server.tool(
    {
      name: 'logMessages',
      title: 'Log messages',
      description:
        'Sends one log message at each level, from debug to emergency; the client sees those at or above its level.',
    },
    (_args, ctx) => {
      for (const level of LOGGING_LEVELS)
        ctx.log(level, `A ${level} message from the everything server`, 'everything');
      return { content: [{ type: 'text', text: `Sent ${LOGGING_LEVELS.length} log messages.` }] };
    },
  );

  server.tool(
    {
      name: 'sampleLLM',
      title: 'Sample the LLM',
      description: "Asks the client's model to answer a prompt (needs the sampling capability).",
      inputSchema: {
        type: 'object',
        properties: {
          prompt: { type: 'string', description: 'The prompt to send to the LLM' },
          maxTokens: { type: 'integer', default: 100, description: 'Most tokens to generate' },
        },
        required: ['prompt'],
      },
    },
    async (args, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
        maxTokens: typeof args.maxTokens === 'number' ? args.maxTokens : 100,
      });
      const text = result.content.type === 'text' ? result.content.text : `[${result.content.type}]`;
      return { content: [{ type: 'text', text: `LLM sampling result: ${text}` }] };
    },
  );

  server.tool(
    { name: 'getTinyImage', title: 'Tiny image', description: 'Returns a tiny image between two texts.' },
    () => ({
      content: [
        { type: 'text', text: 'This is a tiny image:' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        { type: 'text', text: 'The image above is a 1x1 red pixel.' },
      ],
    }),
  );
}
