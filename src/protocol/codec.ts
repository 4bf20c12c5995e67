// Per-revision codecs. Handlers produce one internal shape (the 2025-11-25 revision's); the codec of the
// session's revision turns it into exactly what that revision defines, so handlers never branch on the
// version. Fields a revision does not know are dropped, content kinds it does not know are downgraded to
// text, and behaviours that changed between revisions are flags here.

import { releaseStreamed, streamedPending } from '../jsonrpc/streamed.js';
import { STATELESS_ONLY_EXTENSIONS, withoutExtensions } from './extensions.js';
import type { ContentBlock, ServerCapabilities } from './types.js';
import { atLeast, type HandshakeVersion } from './versions.js';

export interface RevisionCodec {
  readonly version: HandshakeVersion;
  /** JSON-RPC batches exist in 2025-03-26 only. */
  readonly batches: boolean;
  /** Invalid tool arguments: a tool result with isError (2025-11-25) or a -32602 error (earlier). */
  readonly toolInputErrorsAsResults: boolean;
  /** elicitation/create exists from 2025-06-18 on, and its URL mode from 2025-11-25. */
  readonly elicitation: 'none' | 'form' | 'form-and-url';
  /** Extensions not defined for this revision: neither offered at initialize nor negotiated (the tasks one). */
  readonly excludedExtensions: readonly string[];
  encodeResult(method: string, result: Record<string, unknown>): Record<string, unknown>;
  encodeNotification(method: string, params: Record<string, unknown>): Record<string, unknown>;
}

type Obj = Record<string, unknown>;

function omit(value: Obj, keys: readonly string[]): Obj {
  let copy: Obj | undefined;
  for (const key of keys) {
    if (key in value) {
      copy ??= { ...value };
      delete copy[key];
    }
  }
  return copy ?? value;
}

/** Fields each revision lacks on the descriptive objects (tools, resources, templates, prompts). */
function descriptorFields(version: string): string[] {
  const drop: string[] = [];
  if (!atLeast(version, '2025-06-18')) drop.push('title', '_meta');
  if (!atLeast(version, '2025-11-25')) drop.push('icons', 'execution');
  return drop;
}

function toolFields(version: string): string[] {
  const drop = descriptorFields(version);
  if (!atLeast(version, '2025-06-18')) drop.push('outputSchema');
  if (!atLeast(version, '2025-03-26')) drop.push('annotations');
  return drop;
}

function implementationFields(version: string): string[] {
  const drop: string[] = [];
  if (!atLeast(version, '2025-06-18')) drop.push('title');
  if (!atLeast(version, '2025-11-25')) drop.push('icons', 'description', 'websiteUrl');
  return drop;
}

/** Content a revision cannot carry becomes a text block that says what it was. */
/** `descriptor`: the descriptor fields the revision lacks (a resource link is a descriptor too). */
function encodeContent(version: string, block: ContentBlock, descriptor: readonly string[]): ContentBlock {
  if (block.type === 'resource_link' && !atLeast(version, '2025-06-18')) {
    return { type: 'text', text: `Resource: ${block.uri}${block.name ? ` (${block.name})` : ''}` };
  }
  if (block.type === 'audio' && !atLeast(version, '2025-03-26')) {
    return {
      type: 'text',
      text: `[audio content of type ${block.mimeType}, not supported by protocol ${version}]`,
    };
  }
  // Found by the strict schema tests: fields of 2025-06-18 (content and contents _meta, lastModified) and
  // of 2025-11-25 (a resource link's icons) went through to older revisions unchanged.
  if (block.type === 'resource_link') {
    return omit(block as unknown as Obj, descriptor) as unknown as ContentBlock;
  }
  if (atLeast(version, '2025-06-18')) return block;
  let encoded = omit(block as unknown as Obj, ['_meta']);
  if (encoded.annotations)
    encoded = { ...encoded, annotations: encodeAnnotations(version, encoded.annotations) };
  if (block.type === 'resource')
    encoded = { ...encoded, resource: omit(block.resource as unknown as Obj, ['_meta']) };
  return encoded as unknown as ContentBlock;
}

/** Annotations lack lastModified before 2025-06-18. */
function encodeAnnotations(version: string, annotations: unknown): unknown {
  if (atLeast(version, '2025-06-18') || typeof annotations !== 'object' || annotations === null)
    return annotations;
  return omit(annotations as Obj, ['lastModified']);
}

/** A resource, template or prompt as the revision defines it (nested annotations and arguments included). */
function encodeDescriptor(version: string, value: Obj, drop: readonly string[]): Obj {
  let encoded = omit(value, drop);
  if (atLeast(version, '2025-06-18')) return encoded;
  if (encoded.annotations)
    encoded = { ...encoded, annotations: encodeAnnotations(version, encoded.annotations) };
  // Prompt arguments have a title from 2025-06-18 on.
  if (Array.isArray(encoded.arguments))
    encoded = { ...encoded, arguments: mapArray(encoded.arguments, (a) => omit(a, ['title'])) };
  return encoded;
}

function mapArray(value: unknown, fn: (item: Obj) => Obj): unknown {
  return Array.isArray(value) ? value.map((item) => fn(item as Obj)) : value;
}

function makeCodec(version: HandshakeVersion): RevisionCodec {
  const tool = toolFields(version);
  const descriptor = descriptorFields(version);
  const implementation = implementationFields(version);
  const identity = tool.length === 0 && implementation.length === 0;
  const content = (blocks: unknown) =>
    mapArray(
      blocks,
      (b) => encodeContent(version, b as unknown as ContentBlock, descriptor) as unknown as Obj,
    );

  return {
    version,
    batches: version === '2025-03-26',
    toolInputErrorsAsResults: atLeast(version, '2025-11-25'),
    elicitation: atLeast(version, '2025-11-25')
      ? 'form-and-url'
      : atLeast(version, '2025-06-18')
        ? 'form'
        : 'none',
    excludedExtensions: STATELESS_ONLY_EXTENSIONS,
    encodeResult(method, result) {
      if (method === 'initialize') {
        // Capabilities.extensions (SEP-2133) goes to every revision, as its negotiation example does on
        // 2025-06-18; the extensions a revision does not define are left out.
        result = {
          ...result,
          capabilities: withoutExtensions(
            result.capabilities as ServerCapabilities,
            STATELESS_ONLY_EXTENSIONS,
          ),
        };
      }
      if (identity) return result;
      switch (method) {
        case 'initialize': {
          let capabilities = result.capabilities as Obj;
          if (!atLeast(version, '2025-03-26')) capabilities = omit(capabilities, ['completions']);
          return { ...result, capabilities, serverInfo: omit(result.serverInfo as Obj, implementation) };
        }
        case 'tools/list':
          return { ...result, tools: mapArray(result.tools, (t) => omit(t, tool)) };
        case 'resources/list':
          return {
            ...result,
            resources: mapArray(result.resources, (r) => encodeDescriptor(version, r, descriptor)),
          };
        case 'resources/templates/list':
          return {
            ...result,
            resourceTemplates: mapArray(result.resourceTemplates, (r) =>
              encodeDescriptor(version, r, descriptor),
            ),
          };
        case 'prompts/list':
          return {
            ...result,
            prompts: mapArray(result.prompts, (p) => encodeDescriptor(version, p, descriptor)),
          };
        case 'resources/read':
          return atLeast(version, '2025-06-18')
            ? result
            : { ...result, contents: mapArray(result.contents, (c) => omit(c, ['_meta'])) };
        case 'tools/call': {
          if (atLeast(version, '2025-06-18')) return { ...result, content: content(result.content) };
          // A streamed value in what is left out is never written: its source is closed now, not at GC.
          if (streamedPending()) releaseStreamed(result.structuredContent);
          const encoded = omit(result, ['structuredContent']);
          return { ...encoded, content: content(result.content) };
        }
        case 'prompts/get':
          return {
            ...result,
            messages: mapArray(result.messages, (m) => ({
              ...m,
              content: encodeContent(version, m.content as ContentBlock, descriptor),
            })),
          };
        default:
          return result;
      }
    },
    encodeNotification(method, params) {
      if (method === 'notifications/progress' && !atLeast(version, '2025-03-26'))
        return omit(params, ['message']);
      return params;
    },
  };
}

const codecs = new Map<HandshakeVersion, RevisionCodec>();

export function codecFor(version: HandshakeVersion): RevisionCodec {
  let codec = codecs.get(version);
  if (!codec) {
    codec = makeCodec(version);
    codecs.set(version, codec);
  }
  return codec;
}
