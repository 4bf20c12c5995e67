// Prompts: templates of messages with arguments.

import type { RequestContext } from '../protocol/context.js';
import { invalidParams } from '../protocol/errors.js';
import type { GetPromptResult, Prompt } from '../protocol/types.js';
import type { Completer } from './resources.js';

export interface PromptDefinition extends Prompt {
  /** Completion of the prompt's arguments, by argument name. */
  complete?: Record<string, Completer>;
}

export type PromptHandler = (
  args: Record<string, string>,
  context: RequestContext,
) => GetPromptResult | Promise<GetPromptResult>;

export interface RegisteredPrompt {
  readonly prompt: Prompt;
  readonly complete: Record<string, Completer>;
  readonly handler: PromptHandler;
}

export function definePrompt(definition: PromptDefinition, handler: PromptHandler): RegisteredPrompt {
  if (!definition.name) throw new TypeError('a prompt needs a non-empty name');
  const { complete, ...prompt } = definition;
  return { prompt, complete: complete ?? {}, handler };
}

/** Checks prompts/get arguments: an object of strings with every required argument present. */
export function checkPromptArguments(registered: RegisteredPrompt, raw: unknown): Record<string, string> {
  const name = registered.prompt.name;
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw invalidParams(`Invalid params: "arguments" of prompt "${name}" must be an object of strings`);
  }
  const args = (raw ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') {
      throw invalidParams(`Invalid params: argument "${key}" of prompt "${name}" must be a string`);
    }
  }
  const missing = (registered.prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined);
  if (missing.length > 0) {
    throw invalidParams(
      `Invalid params: prompt "${name}" needs the argument${missing.length > 1 ? 's' : ''} ${missing.map((a) => `"${a.name}"`).join(', ')}`,
    );
  }
  return args as Record<string, string>;
}
