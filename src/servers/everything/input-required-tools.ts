// The multi round-trip fixtures (2026-07-28, SEP-2322) that the conformance suite 0.2 calls: tools and a
// prompt that ask the client for input under the names the suite expects (`user_name`, `capital_question`,
// ...). Handshake-era clients get the same questions as server-to-client requests.

import type { RequestContext } from '../../protocol/context.js';
import type { CreateMessageResult, ElicitResult, ListRootsResult } from '../../protocol/types.js';
import type { McpServer } from '../../server/server.js';

function askName(ctx: RequestContext, key: string, message: string): Promise<ElicitResult> {
  return ctx.elicit(
    {
      message,
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
    { key },
  );
}

function sampleText(
  ctx: RequestContext,
  key: string,
  text: string,
  maxTokens: number,
): Promise<CreateMessageResult> {
  return ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens }, { key });
}

function textOf(result: CreateMessageResult): string {
  const content = result.content as { type: string; text?: string } | Array<{ type: string; text?: string }>;
  const first = Array.isArray(content) ? content[0] : content;
  return first?.type === 'text' ? (first.text ?? '') : `(${first?.type ?? 'no'} content)`;
}

function rootList(result: ListRootsResult): string {
  return result.roots.map((root) => root.uri).join(', ') || '(none)';
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

export function registerInputRequiredTools(server: McpServer): void {
  server.tool(
    { name: 'test_input_required_result_elicitation', description: 'Asks the user for a name (user_name).' },
    async (_args, ctx) => {
      const answer = await askName(ctx, 'user_name', 'What is your name?');
      return text(`Hello, ${String(answer.content?.name ?? 'stranger')}!`);
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_sampling',
      description: 'Asks the client to sample (capital_question).',
    },
    async (_args, ctx) => {
      const answer = await sampleText(ctx, 'capital_question', 'What is the capital of France?', 100);
      return text(`The model answered: ${textOf(answer)}`);
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_list_roots',
      description: "Asks for the client's roots (client_roots).",
    },
    async (_args, ctx) => {
      const answer = await ctx.listRoots({ key: 'client_roots' });
      return text(`The client's roots: ${rootList(answer)}`);
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_request_state',
      description: 'Asks for a confirmation; finishes only with the signed requestState it issued.',
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'Please confirm',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        },
        { key: 'confirm' },
      );
      // Reaching here on the second round means the server verified the state (signature, request, expiry).
      return text(`state-ok: confirmed=${String(answer.content?.ok)}`);
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks three questions at once: user_name, greeting and client_roots.',
    },
    async (_args, ctx) => {
      const [name, greeting, roots] = await Promise.all([
        askName(ctx, 'user_name', 'What is your name?'),
        sampleText(ctx, 'greeting', 'Generate a greeting', 50),
        ctx.listRoots({ key: 'client_roots' }),
      ]);
      return text(
        `name=${String(name.content?.name)}; greeting=${textOf(greeting)}; roots=${rootList(roots)}`,
      );
    },
  );

  server.tool(
    { name: 'test_input_required_result_multi_round', description: 'Asks two questions, one round each.' },
    async (_args, ctx) => {
      const name = await askName(ctx, 'step1', 'Step 1: What is your name?');
      const color = await ctx.elicit(
        {
          message: 'Step 2: What is your favorite color?',
          requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
        },
        { key: 'step2' },
      );
      return text(`${String(name.content?.name)} likes ${String(color.content?.color)}`);
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_tampered_state',
      description: 'Asks for a confirmation; a requestState altered on the way back is refused.',
    },
    async (_args, ctx) => {
      await ctx.elicit(
        {
          message: 'Please confirm',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        },
        { key: 'confirm' },
      );
      return text('confirmed with an intact requestState');
    },
  );

  server.tool(
    {
      name: 'test_input_required_result_capabilities',
      description: 'Asks only what the request declares it can answer: a name (elicitation) and a sample.',
    },
    async (_args, ctx) => {
      const asks: Array<Promise<unknown>> = [];
      if ('elicitation' in ctx.clientCapabilities) asks.push(askName(ctx, 'user_name', 'What is your name?'));
      if ('sampling' in ctx.clientCapabilities)
        asks.push(sampleText(ctx, 'greeting', 'Generate a greeting', 50));
      const answers = await Promise.all(asks);
      return text(`answered ${answers.length} of the questions the client can take`);
    },
  );

  server.prompt(
    {
      name: 'test_input_required_result_prompt',
      description: 'A prompt that asks the user for its context first (user_context).',
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'What context should the prompt use?',
          requestedSchema: {
            type: 'object',
            properties: { context: { type: 'string' } },
            required: ['context'],
          },
        },
        { key: 'user_context' },
      );
      return {
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Answer with this context in mind: ${String(answer.content?.context)}`,
            },
          },
        ],
      };
    },
  );
}
