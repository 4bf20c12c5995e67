// What the Streamable HTTP endpoint must know of MCP, and nothing else does: which message opens a
// session (initialize), which POST stands alone (a request of the stateless revision, whose metadata
// and x-mcp-header parameters are checked against its body), and which HTTP status the revision gives an
// answer. The endpoint in src/transport/http carries bytes and sessions; it is handed this binding, so
// that the transport layer holds no MCP method name.

import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { classify, type JsonRpcPayload, type JsonRpcRequest } from '../../jsonrpc/messages.js';
import type { HttpBinding, StandaloneDecision } from '../../transport/http/binding.js';
import { sessionlessState } from '../eras/handshake.js';
import { Method, Notification } from '../methods.js';
import { MetaKey, readEnvelope } from '../stateless.js';
import { HANDSHAKE_VERSIONS } from '../versions.js';
import { type HeaderReader, headerMismatch, statelessVersionOf } from './metadata-headers.js';
import { type ParamHeader, paramHeaderMismatch } from './param-headers.js';

export interface McpHttpBindingOptions {
  /** Protocol versions the MCP-Protocol-Version header of a session's request may name (every handshake one). */
  sessionVersions?: readonly string[];
  /**
   * The parameters of a tool that travel as Mcp-Param-* headers (its inputSchema's x-mcp-header marks),
   * so that a stateless tools/call can be checked against them. McpServer provides it.
   */
  paramHeaders?: (tool: string) => readonly ParamHeader[] | undefined;
}

export function mcpHttpBinding(options: McpHttpBindingOptions = {}): HttpBinding {
  const versions = options.sessionVersions ?? HANDSHAKE_VERSIONS;

  /** For a tools/call, why its Mcp-Param-* headers do not match its arguments. */
  const paramMismatch = (header: HeaderReader, message: JsonRpcRequest): string | undefined => {
    if (message.method !== Method.ToolsCall || !options.paramHeaders) return undefined;
    const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
    const marked = typeof params?.name === 'string' ? options.paramHeaders(params.name) : undefined;
    if (!marked || marked.length === 0) return undefined;
    return paramHeaderMismatch(marked, params?.arguments, header);
  };

  return {
    sessionVersions: versions,

    opensSession: (message) => message.method === Method.Initialize,

    standalone(body, header): StandaloneDecision | undefined {
      const single = Array.isArray(body) ? undefined : classify(body);
      const version = single?.kind === 'request' ? statelessVersionOf(body) : undefined;
      if (single?.kind === 'request' && version !== undefined) {
        const mismatch =
          headerMismatch(header, single.message, version) ?? paramMismatch(header, single.message);
        if (mismatch)
          return refuse(`Header mismatch: ${mismatch}`, ErrorCode.HeaderMismatch, single.message.id);
        // A request whose envelope is incomplete is a bad request, answered 400 with the -32602 the era
        // would give it (the era still checks it, for the transports that have no status).
        const invalid = envelopeProblem(single.message.params);
        if (invalid) return refuse(invalid, ErrorCode.InvalidParams, single.message.id);
        return { kind: 'exchange', id: single.message.id };
      }
      const named = header('mcp-protocol-version');
      if (named === undefined || versions.includes(named) || !isStatelessVersion(named)) return undefined;
      // The header names the stateless revision, the body does not speak it.
      if (Array.isArray(body)) {
        return refuse(`Invalid Request: JSON-RPC batches do not exist in ${named}`, ErrorCode.InvalidRequest);
      }
      if (single?.kind === 'request') {
        // Every request of the revision must name it in _meta: without it the params are invalid.
        return refuse(
          `Invalid params: MCP-Protocol-Version says ${named}, but the body's _meta has no "${MetaKey.ProtocolVersion}" (every request of ${named} carries it)`,
          ErrorCode.InvalidParams,
          single.message.id,
        );
      }
      // The revision defines no client notifications over HTTP (cancellation is closing the stream).
      return { kind: 'accepted' };
    },

    answerStatus(payload: JsonRpcPayload): number {
      const code = (payload as { error?: { code?: unknown } }).error?.code;
      switch (code) {
        case ErrorCode.HeaderMismatch:
        case ErrorCode.MissingRequiredClientCapability:
        case ErrorCode.UnsupportedProtocolVersion:
          return 400;
        // A 404 with a JSON-RPC body tells a stateless server from a handshake-era one.
        case ErrorCode.MethodNotFound:
          return 404;
        default:
          return 200;
      }
    },

    sessionlessState: (named) => sessionlessState(named),

    concerns(notification) {
      const message = notification as { method?: unknown; params?: { requestId?: unknown } };
      if (message.method !== Notification.Cancelled) return undefined;
      const id = message.params?.requestId;
      return typeof id === 'string' || typeof id === 'number' ? id : undefined;
    },
  };
}

/** Why the envelope of a stateless request is invalid params (-32602), if it is. */
function envelopeProblem(params: unknown): string | undefined {
  try {
    readEnvelope(params);
    return undefined;
  } catch (error) {
    return error instanceof JsonRpcError && error.code === ErrorCode.InvalidParams
      ? error.message
      : undefined;
  }
}

function refuse(message: string, code: number, id: JsonRpcRequest['id'] | null = null): StandaloneDecision {
  return { kind: 'refuse', status: 400, code, message, id };
}

/** A revision of the stateless era: a date from 2026-07-28 on (a handshake revision is never one). */
function isStatelessVersion(version: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= '2026-07-28';
}
