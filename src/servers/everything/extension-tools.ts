// The extensions, shown: a tool that runs as a task (io.modelcontextprotocol/tasks) with progress, an
// optional confirmation asked mid-task and cancellation; and a small MCP App (io.modelcontextprotocol/ui):
// a counter whose HTML is a ui:// resource, a tool linked to it, and a tool only the app calls.

import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { JsonRpcError } from '../../jsonrpc/errors.js';
import type { McpServer } from '../../server/server.js';

const COUNTER_URI = 'ui://everything/counter.html';

const COUNTER_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Counter</title>
<style>body{font:16px system-ui;margin:1rem}button{font-size:1rem}</style></head>
<body>
<p>Count: <output id="count">?</output> <button id="more" type="button">+1</button></p>
<script>
// The host speaks JSON-RPC with the app over postMessage (MCP Apps): the tool's result arrives as
// ui/notifications/tool-result, and the app calls the app-only tool through tools/call.
let next = 1;
const show = (result) => {
  const count = result && result.structuredContent && result.structuredContent.count;
  if (typeof count === 'number') document.getElementById('count').textContent = String(count);
};
window.addEventListener('message', (event) => {
  const message = event.data;
  if (!message || message.jsonrpc !== '2.0') return;
  if (message.method === 'ui/notifications/tool-result') show(message.params);
  else if ('result' in message) show(message.result);
});
document.getElementById('more').addEventListener('click', () => {
  window.parent.postMessage(
    { jsonrpc: '2.0', id: next++, method: 'tools/call', params: { name: 'increment_counter', arguments: {} } },
    '*',
  );
});
</script>
</body>
</html>
`;

export function registerExtensionTools(server: McpServer): void {
  server.tool(
    {
      name: 'long_task',
      title: 'A long task',
      description:
        'Works through `steps` steps of `stepMs` ms, reporting progress; with `confirm`, asks the user halfway. Runs as a task when the client declares the tasks extension.',
      task: 'optional',
      inputSchema: {
        type: 'object',
        properties: {
          steps: { type: 'integer', minimum: 1, maximum: 100, default: 5 },
          stepMs: { type: 'integer', minimum: 0, maximum: 60000, default: 200 },
          confirm: { type: 'boolean', default: false },
        },
        additionalProperties: false,
      },
    },
    async (args, ctx) => {
      const steps = typeof args.steps === 'number' ? args.steps : 5;
      const stepMs = typeof args.stepMs === 'number' ? args.stepMs : 200;
      for (let step = 1; step <= steps; step++) {
        await pause(stepMs, ctx.signal);
        ctx.progress(step, steps, `step ${step} of ${steps}`);
        if (args.confirm === true && step === Math.ceil(steps / 2) && step < steps) {
          const answer = await ctx.elicit({
            mode: 'form',
            message: `Step ${step} of ${steps} done. Go on?`,
            requestedSchema: { type: 'object', properties: { proceed: { type: 'boolean', default: true } } },
          });
          if (answer.action !== 'accept' || answer.content?.proceed === false) {
            return { content: [{ type: 'text', text: `Stopped after step ${step} of ${steps}, as asked.` }] };
          }
        }
      }
      return { content: [{ type: 'text', text: `Done: ${steps} steps.` }], structuredContent: { steps } };
    },
  );

  let count = 0;
  server.appResource({
    uri: COUNTER_URI,
    name: 'counter',
    title: 'Counter app',
    description: 'An MCP App: a counter with a button, for hosts that render apps',
    html: COUNTER_HTML,
    ui: { prefersBorder: true },
  });
  server.tool(
    {
      name: 'show_counter',
      title: 'Show the counter',
      description: 'Shows the counter app (hosts without apps get the count as text).',
      ui: { resourceUri: COUNTER_URI },
    },
    () => ({ content: [{ type: 'text', text: `The count is ${count}.` }], structuredContent: { count } }),
  );
  server.tool(
    {
      name: 'increment_counter',
      description: 'Adds one to the counter. Only the counter app calls it (it is hidden from the model).',
      ui: { resourceUri: COUNTER_URI, visibility: ['app'] },
    },
    () => {
      count++;
      return { content: [{ type: 'text', text: `The count is ${count}.` }], structuredContent: { count } };
    },
  );
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The task fixtures the official conformance suite's tasks scenarios call (0.2): a sync tool, a
 * task-capable sleep that can be cancelled, a tool error and a protocol error inside a task, a task that
 * asks for one confirmation, and one that asks two questions at once.
 */
export function registerTaskFixtures(server: McpServer): void {
  server.tool(
    {
      name: 'greet',
      description: 'Says hello (never a task).',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
    },
    (args) => ({ content: [{ type: 'text', text: `Hello, ${String(args.name ?? 'World')}!` }] }),
  );
  server.tool(
    {
      name: 'slow_compute',
      description:
        'Sleeps `seconds` seconds, then answers; a task when the client declares the tasks extension.',
      task: 'optional',
      inputSchema: {
        type: 'object',
        properties: { seconds: { type: 'number', minimum: 0, maximum: 600 }, label: { type: 'string' } },
      },
    },
    async (args, ctx) => {
      const seconds = typeof args.seconds === 'number' ? args.seconds : 1;
      await pause(seconds * 1000, ctx.signal);
      const label = typeof args.label === 'string' ? ` (${args.label})` : '';
      return { content: [{ type: 'text', text: `Computed after ${seconds} s${label}` }] };
    },
  );
  server.tool(
    { name: 'failing_job', description: 'Runs only as a task, then reports a tool error.', task: 'required' },
    async (_args, ctx) => {
      await pause(1000, ctx.signal);
      return { content: [{ type: 'text', text: 'The job failed: nothing to do' }], isError: true };
    },
  );
  server.tool(
    { name: 'protocol_error_job', description: 'A task that ends in a JSON-RPC error.', task: 'optional' },
    () => {
      throw new JsonRpcError(ErrorCode.InternalError, 'the job crashed');
    },
  );
  server.tool(
    {
      name: 'confirm_delete',
      description: 'Asks to confirm before it "deletes" a file (it deletes nothing).',
      task: 'optional',
      inputSchema: { type: 'object', properties: { filename: { type: 'string' } } },
    },
    async (args, ctx) => {
      const filename = String(args.filename ?? 'file');
      const answer = await ctx.elicit({
        mode: 'form',
        message: `Delete ${filename}?`,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean' } },
          required: ['confirm'],
        },
      });
      const confirmed = answer.action === 'accept' && answer.content?.confirm === true;
      return { content: [{ type: 'text', text: confirmed ? `Deleted ${filename}` : `Kept ${filename}` }] };
    },
  );
  server.tool(
    {
      name: 'test_tool_with_task',
      description: 'Asks for a name (multi round-trip), then finishes as a task that greets it.',
    },
    async (_args, ctx) => {
      if (!ctx.tasks) {
        throw new JsonRpcError(
          ErrorCode.MissingRequiredClientCapability,
          'test_tool_with_task runs as a task: declare the io.modelcontextprotocol/tasks extension',
          { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
        );
      }
      // The input comes first, in the call's own rounds; the task starts once it is there.
      const answer = await ctx.elicit({
        mode: 'form',
        message: 'What is your name?',
        requestedSchema: {
          type: 'object',
          properties: { user_name: { type: 'string' } },
          required: ['user_name'],
        },
      });
      const name = String(answer.content?.name ?? 'nobody');
      return ctx.tasks.start(async () => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }));
    },
  );
  server.tool(
    { name: 'multi_input', description: 'Asks two questions at once.', task: 'optional' },
    async (_args, ctx) => {
      const ask = (message: string) =>
        ctx.elicit({
          mode: 'form',
          message,
          requestedSchema: {
            type: 'object',
            properties: { name: { type: 'string' }, confirm: { type: 'boolean' } },
          },
        });
      const [first, second] = await Promise.all([ask('First question?'), ask('Second question?')]);
      const said = [first, second].map((a) => String(a.content?.name ?? a.action));
      return { content: [{ type: 'text', text: `Answers: ${said.join(', ')}` }] };
    },
  );
}
