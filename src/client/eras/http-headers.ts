// The stateless era over a transport with a stream per request (Streamable HTTP): each request goes on
// an exchange of its own, with the metadata headers that mirror its body (MCP-Protocol-Version,
// Mcp-Method, Mcp-Name) and, for tools/call, the Mcp-Param-* headers its tool's x-mcp-header marks ask
// for; cancelling it closes that exchange. The client learns the marks from the tools it lists, and
// leaves out of the list a tool whose marks are invalid, as the revision says a client on this transport
// must. The transport is told all of this per message and reads none of it.

import { abortCancellation } from '../../jsonrpc/cancellation.js';
import type { RequestOptions } from '../../jsonrpc/connection.js';
import { withKeys } from '../../jsonrpc/with-keys.js';
import { requestMetadataHeaders } from '../../protocol/http/metadata-headers.js';
import { type ParamHeader, paramHeaders, paramHeadersOf } from '../../protocol/http/param-headers.js';
import { Method } from '../../protocol/methods.js';
import type { CallOptions } from '../call-options.js';

export class HttpHeaderMirror {
  /** Each listed tool's parameters that travel as Mcp-Param-* headers. */
  private readonly toolParams = new Map<string, ParamHeader[]>();

  constructor(private readonly onWarning: ((message: string) => void) | undefined) {}

  /** The request options of one stateless request: its own exchange, its headers, cancelled by closing. */
  requestOptions(method: string, params: Record<string, unknown>, options: CallOptions): RequestOptions {
    const headers = requestMetadataHeaders({ method, params });
    if (method === Method.ToolsCall) {
      const marked = typeof params.name === 'string' ? this.toolParams.get(params.name) : undefined;
      if (marked) Object.assign(headers, paramHeaders(marked, params.arguments));
    }
    return withKeys(options, { transport: { standalone: true, headers }, cancellation: abortCancellation });
  }

  /** Whether the marks of this tool are known (so a refused call is worth one retry). */
  knows(tool: string): boolean {
    return this.toolParams.has(tool);
  }

  /** Reads the marks of every tool in a tools/list result, leaving out those whose marks are invalid. */
  readTools(result: unknown): void {
    const listed = result as { tools?: unknown } | undefined;
    if (!Array.isArray(listed?.tools)) return;
    listed.tools = listed.tools.filter((tool: { name?: unknown; inputSchema?: unknown }) => {
      if (typeof tool?.name !== 'string') return true;
      const read = paramHeadersOf(tool.inputSchema);
      if ('error' in read) {
        this.toolParams.delete(tool.name);
        this.onWarning?.(`tool "${tool.name}" left out: ${read.error}`);
        return false;
      }
      if (read.headers.length > 0) this.toolParams.set(tool.name, read.headers);
      else this.toolParams.delete(tool.name);
      return true;
    });
  }
}
