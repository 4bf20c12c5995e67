// The request metadata headers of the stateless revision (2026-07-28, basic/transports/streamable-http):
// MCP-Protocol-Version, Mcp-Method and Mcp-Name mirror the body so that intermediaries can route without
// parsing it. The client writes them; the server checks that they say what the body says, because a
// gateway that trusts the header and a server that trusts the body must never disagree.

import { MetaKey, metaOf } from '../stateless.js';

/** Reads one request header by its lower-case name (repeated ones joined as HTTP joins them). */
export type HeaderReader = (name: string) => string | undefined;

/** Methods whose Mcp-Name header mirrors params.name, params.uri or (the tasks extension) params.taskId. */
const NAMED: Record<string, 'name' | 'uri' | 'taskId'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const SENTINEL = /^=\?base64\?(.*)\?=$/;

/** A header value as the client must write it: plain when it is safe visible ASCII, else the base64 sentinel. */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !SENTINEL.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** A header value as it was meant; undefined when it is not valid. */
export function decodeHeaderValue(value: string): string | undefined {
  // Most values are plain: no regular expression for them (every stateless tools/call has one).
  if (!value.startsWith('=?')) return value;
  const match = SENTINEL.exec(value);
  if (!match) return value;
  const encoded = match[1]!;
  // Strict base64: whole groups of four, padded; Buffer would decode a truncated or unpadded value too.
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded)) return undefined;
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** The protocol version a stateless request names in its _meta, if it is one. */
export function statelessVersionOf(message: unknown): string | undefined {
  // The same reading of `_meta` as the server's routing (isStatelessRequest), not a second one.
  const version = metaOf((message as { params?: unknown } | null)?.params)?.[MetaKey.ProtocolVersion];
  return typeof version === 'string' ? version : undefined;
}

/** The headers a client puts on the POST of a stateless request. */
export function requestMetadataHeaders(message: {
  method: string;
  params?: unknown;
}): Record<string, string> {
  const headers: Record<string, string> = { 'Mcp-Method': message.method };
  const version = statelessVersionOf(message);
  if (version !== undefined) headers['MCP-Protocol-Version'] = version;
  const field = NAMED[message.method];
  const named = field ? (message.params as Record<string, unknown> | undefined)?.[field] : undefined;
  if (typeof named === 'string') headers['Mcp-Name'] = encodeHeaderValue(named);
  return headers;
}

/** Why the headers of a stateless request do not match its body (a HeaderMismatch), or undefined. */
export function headerMismatch(
  header: HeaderReader,
  message: { method: string; params?: unknown },
  version: string,
): string | undefined {
  const protocolVersion = header('mcp-protocol-version');
  if (protocolVersion === undefined) return 'the MCP-Protocol-Version header is missing';
  if (protocolVersion !== version) {
    return `MCP-Protocol-Version header value '${protocolVersion}' does not match body value '${version}'`;
  }
  const method = header('mcp-method');
  if (method === undefined) return 'the Mcp-Method header is missing';
  if (method !== message.method) {
    return `Mcp-Method header value '${method}' does not match body value '${message.method}'`;
  }
  const field = NAMED[message.method];
  if (field) {
    const raw = header('mcp-name');
    if (raw === undefined) return `the Mcp-Name header is missing (it carries params.${field} of ${method})`;
    const name = decodeHeaderValue(raw);
    if (name === undefined) return `Mcp-Name header value '${raw}' is not valid base64 inside =?base64?…?=`;
    const body = (message.params as Record<string, unknown> | undefined)?.[field];
    if (name !== body) {
      return `Mcp-Name header value '${name}' does not match body value '${String(body)}' (params.${field})`;
    }
  }
  return undefined;
}
