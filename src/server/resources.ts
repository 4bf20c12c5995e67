// Resources: fixed URIs and URI templates, their listing, and reads.

import type { StreamedString } from '../jsonrpc/streamed.js';
import type { RequestContext } from '../protocol/context.js';
import { resourceNotFound } from '../protocol/errors.js';
import type { ReadResourceResult, Resource, ResourceContents, ResourceTemplate } from '../protocol/types.js';
import { UriTemplate } from './uri-template.js';

/**
 * Contents whose `text` or `blob` is a StreamedString (streamedFile): written into the answer as it is
 * read (jsonrpc/streamed.ts).
 */
export type StreamedContents = Omit<ResourceContents, 'text' | 'blob'> &
  ({ text: StreamedString } | { blob: StreamedString });

export type ReadOutput = ReadResourceResult | Array<ResourceContents | StreamedContents>;

export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
) => string[] | Promise<string[]>;

export type ResourceReader = (uri: string, context: RequestContext) => ReadOutput | Promise<ReadOutput>;

export type TemplateReader = (
  uri: string,
  variables: Record<string, string | string[]>,
  context: RequestContext,
) => ReadOutput | Promise<ReadOutput>;

/** One page of a template's listing; `next` is where the following page starts (opaque to the server). */
export interface ResourcePage {
  resources: Resource[];
  next?: string | undefined;
}

export interface ListPosition {
  /** Where the previous page ended, as this lister's own `next`; undefined for the first page. */
  after: string | undefined;
  /** How many resources are wanted at most. */
  limit: number;
}

export interface ResourceTemplateDefinition extends ResourceTemplate {
  /**
   * The concrete resources of this template, for resources/list: either all of them (the server pages
   * them) or one page from `position`, for listings too large to build at once.
   */
  list?: (
    context: RequestContext,
    position: ListPosition,
  ) => Resource[] | ResourcePage | Promise<Resource[] | ResourcePage>;
  /** Completion of the template's variables, by variable name. */
  complete?: Record<string, Completer>;
}

export interface RegisteredResource {
  readonly resource: Resource;
  readonly read: ResourceReader;
}

export interface RegisteredTemplate {
  readonly template: ResourceTemplate;
  readonly matcher: UriTemplate;
  readonly list: ResourceTemplateDefinition['list'];
  readonly complete: Record<string, Completer>;
  readonly read: TemplateReader;
}

export function defineTemplate(
  definition: ResourceTemplateDefinition,
  read: TemplateReader,
): RegisteredTemplate {
  const { list, complete, ...template } = definition;
  return { template, matcher: new UriTemplate(template.uriTemplate), list, complete: complete ?? {}, read };
}

export function normalizeRead(uri: string, output: ReadOutput): ReadResourceResult {
  // Streamed contents are strings on the wire: the connection or the transport writes them so.
  const result = (Array.isArray(output) ? { contents: output } : output) as ReadResourceResult;
  if (result.contents.length === 0) throw resourceNotFound(uri);
  return result;
}
