// The tools the official conformance suite's server scenarios call, exactly as the suite checks them
// (see the fixtures described for @modelcontextprotocol/conformance 0.1.16).

import type { ElicitResult } from '../../protocol/types.js';
import type { McpServer } from '../../server/server.js';
import { delay, RED_PIXEL_PNG, silentWav } from './assets.js';

const LOGGER = 'conformance-test-server';

function describeElicitation(prefix: string, result: ElicitResult): string {
  return `${prefix}: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
}

export function registerConformanceTools(server: McpServer): void {
  server.tool(
    { name: 'test_simple_text', title: 'Simple text', description: 'Returns one text block.' },
    () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] }),
  );

  server.tool(
    { name: 'test_image_content', title: 'Image content', description: 'Returns a 1x1 red PNG image.' },
    () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] }),
  );

  server.tool(
    {
      name: 'test_audio_content',
      title: 'Audio content',
      description: 'Returns 10 ms of silence as a WAV file.',
    },
    () => ({ content: [{ type: 'audio', data: silentWav(), mimeType: 'audio/wav' }] }),
  );

  server.tool(
    {
      name: 'test_embedded_resource',
      title: 'Embedded resource',
      description: 'Returns a text resource embedded in the result.',
    },
    () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  );

  server.tool(
    {
      name: 'test_multiple_content_types',
      title: 'Mixed content',
      description: 'Returns text, an image and a resource.',
    },
    () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );

  server.tool(
    {
      name: 'test_tool_with_logging',
      title: 'Tool that logs',
      description: 'Sends three log messages while it runs, 50 ms apart.',
    },
    async (_args, ctx) => {
      ctx.log('info', 'Tool execution started', LOGGER);
      await delay(50, ctx.signal);
      ctx.log('info', 'Tool processing data', LOGGER);
      await delay(50, ctx.signal);
      ctx.log('info', 'Tool execution completed', LOGGER);
      return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] };
    },
  );

  server.tool(
    {
      name: 'test_tool_with_progress',
      title: 'Tool with progress',
      description: 'Reports progress 0, 50 and 100 of 100 before it answers.',
    },
    async (_args, ctx) => {
      for (const [index, step] of [0, 50, 100].entries()) {
        if (index > 0) await delay(50, ctx.signal);
        ctx.progress(step, 100, `Completed step ${step} of 100`);
      }
      return { content: [{ type: 'text', text: 'Tool with progress executed successfully' }] };
    },
  );

  server.tool(
    {
      name: 'test_error_handling',
      title: 'Error result',
      description: 'Always fails, as a tool result with isError.',
    },
    () => ({
      isError: true,
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
    }),
  );

  server.tool(
    {
      name: 'test_sampling',
      title: 'Sampling',
      description: "Asks the client's model to answer a prompt.",
      inputSchema: {
        type: 'object',
        properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
        required: ['prompt'],
      },
    },
    async (args, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
        maxTokens: 100,
      });
      const text = result.content.type === 'text' ? result.content.text : `[${result.content.type}]`;
      return { content: [{ type: 'text', text: `LLM response: ${text}` }] };
    },
  );

  server.tool(
    {
      name: 'test_elicitation',
      title: 'Elicitation',
      description: 'Asks the user, through the client, for a username and an email address.',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'The message to show the user' } },
        required: ['message'],
      },
    },
    async (args, ctx) => {
      const result = await ctx.elicit({
        mode: 'form',
        message: String(args.message),
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return {
        content: [
          {
            type: 'text',
            text: `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`,
          },
        ],
      };
    },
  );

  server.tool(
    {
      name: 'test_elicitation_sep1034_defaults',
      title: 'Elicitation with defaults',
      description: 'Asks for a form whose fields all have default values (SEP-1034).',
    },
    async (_args, ctx) => {
      const result = await ctx.elicit({
        mode: 'form',
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
        },
      });
      return { content: [{ type: 'text', text: describeElicitation('Elicitation completed', result) }] };
    },
  );

  server.tool(
    {
      name: 'test_elicitation_sep1330_enums',
      title: 'Elicitation with enums',
      description: 'Asks for a form with single- and multi-select enums, titled and untitled (SEP-1330).',
    },
    async (_args, ctx) => {
      const options = (prefix: string, titles: string[]) =>
        titles.map((title, i) => ({ const: `${prefix}${i + 1}`, title }));
      const result = await ctx.elicit({
        mode: 'form',
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: options('value', ['First Option', 'Second Option', 'Third Option']),
            },
            legacyEnum: {
              type: 'string',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              minItems: 1,
              maxItems: 3,
            },
            titledMulti: {
              type: 'array',
              items: { anyOf: options('value', ['First Choice', 'Second Choice', 'Third Choice']) },
              minItems: 1,
              maxItems: 3,
            },
          },
        },
      });
      return { content: [{ type: 'text', text: describeElicitation('Elicitation completed', result) }] };
    },
  );

  server.tool(
    {
      name: 'json_schema_2020_12_tool',
      title: 'JSON Schema 2020-12',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a promise.
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
    },
    (args) => ({
      content: [{ type: 'text', text: `json_schema_2020_12_tool called with: ${JSON.stringify(args)}` }],
    }),
  );

  server.tool(
    {
      name: 'test_header_param',
      title: 'Header parameter',
      description:
        'Echoes its region, which a 2026-07-28 client over HTTP also sends as the Mcp-Param-Region header (x-mcp-header).',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'Where to route the call', 'x-mcp-header': 'Region' },
        },
        required: ['region'],
      },
    },
    (args) => ({ content: [{ type: 'text', text: `region: ${String(args.region)}` }] }),
  );

  server.tool(
    {
      name: 'test_reconnection',
      title: 'Reconnection',
      description: 'Answers after 100 ms, for clients testing stream reconnection.',
    },
    async (_args, ctx) => {
      await delay(100, ctx.signal);
      return { content: [{ type: 'text', text: 'Reconnection test completed successfully.' }] };
    },
  );
}
