// Resources, the resource template and the prompts of the conformance fixtures, with completion, and a
// resource that changes every few seconds while someone is subscribed to it.

import { invalidParams } from '../../protocol/errors.js';
import type { McpServer } from '../../server/server.js';
import { RED_PIXEL_PNG } from './assets.js';

const WATCHED = 'test://watched-resource';
const WORDS = ['hello', 'help', 'paris', 'park', 'party', 'test', 'testing', 'world'];
const IDS = ['1', '2', '3', '42', '123'];

export interface ResourceOptions {
  /** How often the watched resource changes while subscribed, in ms (3000). */
  watchInterval?: number;
}

export function registerResources(server: McpServer, options: ResourceOptions = {}): void {
  server.resource(
    {
      uri: 'test://static-text',
      name: 'Static text',
      description: 'A text resource that never changes.',
      mimeType: 'text/plain',
    },
    (uri) => [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  );
  server.resource(
    {
      uri: 'test://static-binary',
      name: 'Static binary',
      description: 'A 1x1 red PNG image.',
      mimeType: 'image/png',
    },
    (uri) => [{ uri, mimeType: 'image/png', blob: RED_PIXEL_PNG }],
  );

  let revision = 0;
  server.resource(
    {
      uri: WATCHED,
      name: 'Watched resource',
      description: 'Changes every few seconds while a client is subscribed to it.',
      mimeType: 'text/plain',
    },
    (uri) => [{ uri, mimeType: 'text/plain', text: `Watched resource content (revision ${revision})` }],
  );
  let timer: ReturnType<typeof setInterval> | undefined;
  server.onSubscriptionChange((uri, subscribed) => {
    if (uri !== WATCHED) return;
    clearInterval(timer);
    timer = undefined;
    if (!subscribed) return;
    timer = setInterval(() => {
      revision++;
      server.notifyResourceUpdated(WATCHED);
    }, options.watchInterval ?? 3000);
    // The timer must never be what keeps the process alive after its client is gone.
    timer.unref();
  });

  server.resourceTemplate(
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template',
      title: 'Data by id',
      description: 'JSON data for any id.',
      mimeType: 'application/json',
      complete: { id: (value) => IDS.filter((id) => id.startsWith(value)) },
    },
    (uri, variables) => {
      const id = String(variables.id);
      return [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ];
    },
  );
}

export function registerPrompts(server: McpServer): void {
  server.prompt(
    { name: 'test_simple_prompt', title: 'Simple prompt', description: 'A prompt without arguments.' },
    () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    }),
  );

  server.prompt(
    {
      name: 'test_prompt_with_arguments',
      title: 'Prompt with arguments',
      description: 'A prompt with two required arguments.',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
      complete: {
        arg1: (value) => WORDS.filter((w) => w.startsWith(value)),
        arg2: (value) => WORDS.filter((w) => w.startsWith(value)),
      },
    },
    (args) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` },
        },
      ],
    }),
  );

  server.prompt(
    {
      name: 'test_prompt_with_embedded_resource',
      title: 'Prompt with an embedded resource',
      description: 'A prompt that embeds a resource.',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    },
    (args) => {
      // The embedded resource's uri must be a URI, or the prompt's own result would be invalid.
      if (!URL.canParse(args.resourceUri!)) {
        throw invalidParams(
          `Invalid params: resourceUri must be a URI such as test://example-resource; got "${args.resourceUri}"`,
        );
      }
      return {
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: {
                uri: args.resourceUri!,
                mimeType: 'text/plain',
                text: 'Embedded resource content for testing.',
              },
            },
          },
          { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
        ],
      };
    },
  );

  server.prompt(
    {
      name: 'test_prompt_with_image',
      title: 'Prompt with an image',
      description: 'A prompt that includes an image.',
    },
    () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  );
}
