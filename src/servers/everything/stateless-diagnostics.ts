// The diagnostic tools of the conformance suite 0.2's stateless scenario (2026-07-28, SEP-2575): a tool
// that needs a capability the request may not declare, one that asks the user mid-call, one that logs,
// and two that change the tool or prompt list so that subscriptions/listen streams have news to carry.

import type { McpServer, Registration } from '../../server/server.js';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

export function registerStatelessDiagnostics(server: McpServer): void {
  server.tool(
    {
      name: 'test_missing_capability',
      description:
        'Samples from the client: a request that does not declare sampling is refused with -32021.',
    },
    async (_args, ctx) => {
      const answer = await ctx.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 },
        { key: 'sample' },
      );
      return text(`sampled with ${answer.model}`);
    },
  );

  server.tool(
    {
      name: 'test_streaming_elicitation',
      description:
        'Asks the user for a name mid-call (an input_required result, never a request of its own).',
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        { key: 'user_name' },
      );
      return text(`Hello, ${String(answer.content?.name)}!`);
    },
  );

  server.tool(
    {
      name: 'test_logging_tool',
      description: 'Logs three messages at info: sent only to a request that asked for a log level.',
    },
    (_args, ctx) => {
      for (const step of ['started', 'working', 'done']) ctx.log('info', `test_logging_tool ${step}`);
      return text('logged three messages');
    },
  );

  let transientTool: Registration | undefined;
  server.tool(
    {
      name: 'test_trigger_tool_change',
      description: 'Adds or removes the tool test_transient_tool: the tool list changes.',
    },
    () => {
      if (transientTool) {
        transientTool.remove();
        transientTool = undefined;
        return text('removed test_transient_tool');
      }
      transientTool = server.tool(
        { name: 'test_transient_tool', description: 'Comes and goes with test_trigger_tool_change.' },
        () => text('still here'),
      );
      return text('added test_transient_tool');
    },
  );

  let transientPrompt: Registration | undefined;
  server.tool(
    {
      name: 'test_trigger_prompt_change',
      description: 'Adds or removes the prompt test_transient_prompt: the prompt list changes.',
    },
    () => {
      if (transientPrompt) {
        transientPrompt.remove();
        transientPrompt = undefined;
        return text('removed test_transient_prompt');
      }
      transientPrompt = server.prompt(
        { name: 'test_transient_prompt', description: 'Comes and goes with test_trigger_prompt_change.' },
        () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'still here' } }] }),
      );
      return text('added test_transient_prompt');
    },
  );
}
