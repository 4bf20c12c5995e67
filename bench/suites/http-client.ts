// MCP clients over Streamable HTTP side by side: mcpwire's McpClient on HttpClientTransport, the official
// SDK's Client on StreamableHTTPClientTransport and a hand-written fetch loop (the lower bound), each with
// its own copy of one hand-written HTTP server (bench/peers/raw-http-server.mjs), which answers every
// request as JSON or, in the second table, as a one-event SSE stream. tools/call of a trivial tool with 1
// and with 32 in flight: calls/s and the client's CPU time per call.

import { formatRatio } from '../lib/format.js';
import { type CallRun, type ClientSpec, medianOf, nodeScript, withClients } from '../lib/mcp.js';
import { packageVersion } from '../lib/results.js';
import type { Row, Section, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';
import { HTTP_WINDOW, httpWorkloads, takeTurns } from '../lib/workloads.js';

export const httpClient: Suite = {
  name: 'http-client',
  description:
    'MCP clients (mcpwire, SDK, hand-written) over Streamable HTTP: 1 and 32 in flight, JSON and SSE',
  async run(context) {
    const q = context.quick;
    const runs = q ? 3 : 7;
    const loads = httpWorkloads(q ? 300 : 1500, q ? 1000 : 5000);
    const sdk = `sdk ${packageVersion('@modelcontextprotocol/sdk')}`;
    const subjects = ['mcpwire', sdk, 'hand-written'];
    const clients = ['mcpwire-http-client.mjs', 'sdk-http-client.mjs', 'raw-http-client.mjs'];
    const sections: Section[] = [];
    for (const answer of ['json', 'sse'] as const) {
      const server = nodeScript('raw-http-server.mjs', { answer });
      const specs: ClientSpec[] = clients.map((client) => ({ client, server }));
      context.progress(
        `http-client: ${answer} answers, ${subjects.length} clients, each with its own server`,
      );
      const samples = await withClients(specs, (peers) =>
        takeTurns<CallRun>(peers, subjects, loads, runs, context.progress),
      );
      const rows = loads.flatMap((w, wi): Row[] => {
        const rate = (pi: number) => (w.calls / median(samples[wi]![pi]!.map((r) => r.ms))) * 1000;
        return subjects.map((subject, pi): Row => {
          const runsOf = samples[wi]![pi]!;
          const vsSdk = rate(pi) / rate(1);
          const cpu = medianOf(runsOf.map((r) => (r.clientCpuMs * 1000) / w.calls));
          return {
            case: w.case,
            subject,
            medianMs: median(runsOf.map((r) => r.ms)),
            samplesMs: runsOf.map((r) => r.ms),
            throughput: rate(pi),
            unit: 'calls/s',
            ratios: { sdk: vsSdk, lowerBound: rate(pi) / rate(2) },
            metrics: cpu === undefined ? {} : { clientCpuUs: cpu },
            target:
              pi === 0 && w.window === HTTP_WINDOW
                ? { text: `>= 1.5x ${sdk}`, met: vsSdk >= 1.5 }
                : undefined,
          };
        });
      });
      const pipelinedRaw = (w: number, pi: number) =>
        (loads[w]!.calls / median(samples[w]![pi]!.map((r) => r.ms))) * 1000;
      sections.push({
        title: `MCP clients over Streamable HTTP, answers as ${answer === 'json' ? 'JSON' : 'SSE streams'}: tools/call of a trivial tool`,
        ratioColumns: [
          { key: 'sdk', header: `calls/s ÷ ${sdk}` },
          { key: 'lowerBound', header: 'calls/s ÷ hand-written' },
        ],
        metricColumns: [{ key: 'clientCpuUs', header: 'client CPU/call', suffix: ' µs' }],
        rows,
        notes: [
          `mcpwire: McpClient.callTool() on HttpClientTransport (bench/peers/mcpwire-http-client.mjs); ${sdk}: Client.callTool() on StreamableHTTPClientTransport (sdk-http-client.mjs); both with default options. hand-written: raw-http-client.mjs, one node:http POST per call on a keep-alive agent with a hand-built body, nothing validated: the lower bound.`,
          `Each client has its own copy of the hand-written server (raw-http-server.mjs, node:http, keep-alive), in its own process, answering ${answer === 'json' ? 'application/json' : 'text/event-stream with one event'}. One warm-up run each, then they take turns run by run; every result is checked. client CPU/call is the client process's user + system time over the run divided by the calls.`,
          `For scale: with ${HTTP_WINDOW} in flight the hand-written client reaches ${formatRatio(pipelinedRaw(1, 2) / pipelinedRaw(1, 1))} the ${sdk} client's calls/s.`,
        ],
      });
    }
    return sections;
  },
};
