// The x-mcp-header marks of the tools a front lists for its back servers (2026-07-28): the front's HTTP
// binding checks a tools/call's Mcp-Param-* headers against them before the call goes on, as the server
// itself would over HTTP (a back on stdio never sees the headers). Learned from every tools/list that
// passes through the front, under the names the front lists them by, and beforehand: the proxy asks its
// back at server/discover, the gateway lists its servers' tools when each is ready.

import { type ParamHeader, paramHeadersOf } from '../protocol/http/param-headers.js';

export class ToolMarks {
  private readonly marks = new Map<string, ParamHeader[]>();

  /** The tools of a tools/list page the front answered with. */
  learn(tools: unknown): void {
    if (!Array.isArray(tools)) return;
    for (const tool of tools as Array<{ name?: unknown; inputSchema?: unknown }>) {
      if (typeof tool?.name !== 'string') continue;
      const read = paramHeadersOf(tool.inputSchema);
      // A tool whose marks are invalid is one a client leaves out: nothing to check it by.
      const headers = 'headers' in read ? read.headers : [];
      if (headers.length > 0) this.marks.set(tool.name, headers);
      else this.marks.delete(tool.name);
    }
  }

  /** For the HTTP binding (ListenOptions.paramHeaders). */
  readonly of = (name: string): readonly ParamHeader[] | undefined => this.marks.get(name);
}
