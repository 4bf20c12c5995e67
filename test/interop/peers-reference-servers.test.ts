// mcpwire's client and host against the official reference servers, as real processes over stdio:
// `mcp-server-everything` (every feature of the protocol, built on SDK v1) and `mcp-server-filesystem`.
// The client probes with server/discover, gets an error from these handshake-era servers and falls back to
// initialize. Every tool the everything server lists is called with arguments made from its input schema;
// the tools that would need a real model or a real user run too, answered by the client's callbacks.
// Everything mcpwire sends is checked against the official schema of the revision in use.
// Needs the build (`npm run build`): the host test starts `bin/mcpwire.js serve fs`.

import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { McpClient, type McpClientOptions } from '../../src/client/client.js';
import { parseConfig } from '../../src/host/config.js';
import { McpHost, RoutingError } from '../../src/host/host.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import type {
  CallToolResult,
  CreateMessageRequestParams,
  ElicitRequestParams,
  ElicitResult,
  JsonSchema,
  LoggingMessageNotificationParams,
  Tool,
} from '../../src/protocol/types.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';
import {
  BIN,
  EVERYTHING_BIN,
  Events,
  FILESYSTEM_BIN,
  HANDSHAKE,
  MODERN,
  makeTempDir,
  REPO_ROOT,
  recording,
  removeDir,
  requestMethods,
  schemaProblems,
  textOf,
  type Wire,
} from '../support/peers.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

type Blocks = Array<Record<string, unknown> & { type: string }>;

function blocksOf(result: CallToolResult): Blocks {
  return result.content as unknown as Blocks;
}

// ---- arguments from an input schema ----

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

/** A plausible value of a JSON Schema property: its first enum value, else one of its type. */
function sampleValue(name: string, schema: PropertySchema): unknown {
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      return schema.format === 'uri' || schema.format === 'url'
        ? 'https://example.com/peers'
        : `peers ${name}`;
    case 'number':
    case 'integer':
      return Math.max(schema.minimum ?? 2, 2);
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return argumentsFor(schema as JsonSchema);
    default:
      return `peers ${name}`;
  }
}

/** Arguments for every required property of an input schema; optional ones are left to their defaults. */
function argumentsFor(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, sampleValue(name, properties[name] ?? {})]));
}

/** A tool's task support (SEP-1686), which mcpwire's Tool type does not name. */
function executionOf(tool: Tool): string | undefined {
  return (tool as Tool & { execution?: { taskSupport?: string } }).execution?.taskSupport;
}

// ---- mcp-server-everything ----

describe('mcpwire McpClient with mcp-server-everything over stdio', () => {
  let client: McpClient;
  let wire: Wire;
  let scratch: string;
  const logs: LoggingMessageNotificationParams[] = [];
  const updated: string[] = [];
  const sampled: CreateMessageRequestParams[] = [];
  const elicited: ElicitRequestParams[] = [];
  const events = new Events();

  before(async () => {
    scratch = await makeTempDir('mcpwire-peers-everything-');
    const options: McpClientOptions = {
      name: 'mcpwire-peers',
      version: '1.0.0',
      timeout: 30_000,
      onSampling: async (params) => {
        sampled.push(params);
        return {
          role: 'assistant',
          content: { type: 'text', text: 'a canned answer' },
          model: 'peers-model',
        };
      },
      onElicitation: async (params): Promise<ElicitResult> => {
        elicited.push(params);
        if (params.mode === 'url') return { action: 'accept' };
        const wanted = Object.keys((params.requestedSchema.properties ?? {}) as Record<string, unknown>);
        // Answers the fields a person would type; the client fills in the defaults of the rest (SEP-1034).
        if (wanted.includes('interpretation'))
          return { action: 'accept', content: { interpretation: 'peers' } };
        // `number` is answered although it has a default (3.14): the official JSON Schema of ElicitResult
        // allows only string, integer, boolean and string[] values, so the default filled in as is would
        // be a non-integer number the schema refuses (the requested schema's NumberSchema allows one).
        return {
          action: 'accept',
          content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com', number: 7 },
        };
      },
      elicitationUrl: true,
      roots: () => [{ uri: pathToFileURL(scratch).href, name: 'peers scratch' }],
      onLog: (message) => {
        logs.push(message);
        events.nudge();
      },
      onResourceUpdated: (uri) => {
        updated.push(uri);
        events.nudge();
      },
    };
    client = new McpClient(options);
    const recorded = recording(
      new ChildProcessTransport({ command: EVERYTHING_BIN, env: { PEERS_MARKER: 'everything-marker' } }),
    );
    wire = recorded.wire;
    await client.connect(recorded.transport, { timeout: 30_000 });
  });

  after(async () => {
    await client?.close();
    await removeDir(scratch);
  });

  it('probes with server/discover, gets an error, and falls back to the handshake era', () => {
    assert.equal(client.era, 'handshake');
    assert.equal(client.protocolVersion, HANDSHAKE);
    assert.equal(client.serverInfo?.name, 'mcp-servers/everything');
    assert.ok(client.serverCapabilities?.tools && client.serverCapabilities.prompts);
    assert.match(client.instructions ?? '', /\S/);
    const [probe, init] = requestMethods(wire.sent);
    assert.equal(probe, 'server/discover');
    assert.equal(init, 'initialize');
    const answer = wire.received[0] as { id: unknown; error?: { code: number } };
    assert.equal(answer.id, (wire.sent[0] as { id: unknown }).id);
    assert.equal(answer.error?.code, -32601, 'the SDK v1 server knows no server/discover');
  });

  it('pings', async () => {
    assert.deepEqual(await client.ping(), {});
  });

  it('lists every tool and calls each one with arguments made from its input schema', async () => {
    await client.setLoggingLevel('debug');
    const tools = await client.listAllTools();
    const names = tools.map((t) => t.name);
    // Registered only for clients that declare sampling, elicitation and roots, as this one does.
    for (const conditional of ['trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list'])
      assert.ok(names.includes(conditional), `${conditional} is listed`);
    // Registered only for clients that run server requests as tasks (tasks.requests.*), which mcpwire does
    // not declare: they are not listed, so there is nothing to call.
    assert.ok(!names.includes('trigger-sampling-request-async'));
    assert.ok(!names.includes('trigger-elicitation-request-async'));

    // Where a schema default would leave the machine or take long, the argument is given explicitly.
    const overrides: Record<string, Record<string, unknown>> = {
      // The default fetches a README from GitHub; a data: URI keeps the test off the network.
      'gzip-file-as-resource': {
        name: 'peers.txt.gz',
        data: `data:text/plain;base64,${Buffer.from('hello gzip from mcpwire').toString('base64')}`,
      },
      // The default runs for 10 seconds.
      'trigger-long-running-operation': { duration: 0.2, steps: 4 },
      'get-annotated-message': { messageType: 'error', includeImage: true },
    };

    type Progress = Array<{ progress: number; total?: number }>;
    type Check = (result: CallToolResult, args: Record<string, unknown>, progress: Progress) => Promise<void>;
    const checks: Record<string, Check> = {
      echo: async (result, args) => assert.equal(textOf(result), `Echo: ${String(args.message)}`),
      'get-sum': async (result, args) =>
        assert.equal(
          textOf(result),
          `The sum of ${args.a} and ${args.b} is ${Number(args.a) + Number(args.b)}.`,
        ),
      'get-env': async (result) => {
        const env = JSON.parse(textOf(result)) as Record<string, string>;
        assert.equal(env.PEERS_MARKER, 'everything-marker');
        // The child gets the safe default environment plus what the configuration adds, nothing else.
        const allowed = [
          'HOME',
          'LOGNAME',
          'PATH',
          'SHELL',
          'TERM',
          'USER',
          'LANG',
          'TMPDIR',
          'PEERS_MARKER',
        ];
        assert.deepEqual(
          Object.keys(env).filter((k) => !allowed.includes(k)),
          [],
        );
      },
      'get-annotated-message': async (result) => {
        const [message, image] = blocksOf(result);
        assert.deepEqual(message?.annotations, { priority: 1, audience: ['user', 'assistant'] });
        assert.equal(image?.type, 'image');
      },
      'get-tiny-image': async (result) => {
        const image = blocksOf(result).find((b) => b.type === 'image');
        assert.equal(image?.mimeType, 'image/png');
        assert.equal(Buffer.from(String(image?.data), 'base64').subarray(1, 4).toString(), 'PNG');
      },
      'get-resource-links': async (result) => {
        const links = blocksOf(result).filter((b) => b.type === 'resource_link');
        assert.equal(links.length, 3, 'the schema default count');
        for (const link of links) assert.match(String(link.uri), /^demo:\/\/resource\/dynamic\//);
      },
      'get-resource-reference': async (result) => {
        const embedded = blocksOf(result).find((b) => b.type === 'resource')?.resource as
          | { uri: string; text?: string }
          | undefined;
        assert.equal(embedded?.uri, 'demo://resource/dynamic/text/1');
        assert.match(embedded?.text ?? '', /^Resource 1: This is a plaintext resource/);
      },
      'get-structured-content': async (result) => {
        const structured = result.structuredContent as Record<string, unknown>;
        assert.deepEqual(structured, { temperature: 33, conditions: 'Cloudy', humidity: 82 });
        assert.deepEqual(JSON.parse(textOf(result)), structured, 'the text block carries the same data');
      },
      'gzip-file-as-resource': async (result) => {
        const [link] = blocksOf(result);
        assert.equal(link?.type, 'resource_link');
        assert.equal(link?.uri, 'demo://resource/session/peers.txt.gz');
        // The session resource it registered can be read back and unzipped.
        const read = await client.readResource('demo://resource/session/peers.txt.gz');
        const blob = (read.contents[0] as { blob?: string }).blob ?? '';
        assert.equal(gunzipSync(Buffer.from(blob, 'base64')).toString(), 'hello gzip from mcpwire');
      },
      'toggle-simulated-logging': async (result) => {
        assert.match(textOf(result), /^Started simulated, random-leveled logging/);
        // The first message is sent at once; then one every five seconds, until toggled off.
        const message = await events.until(
          () => logs.find((l) => /^\w+[- ]level[- ]message/i.test(String(l.data))),
          10_000,
          'a simulated log message',
        );
        assert.ok(
          ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].includes(
            message.level,
          ),
        );
        const stopped = await client.callTool('toggle-simulated-logging');
        assert.match(textOf(stopped), /^Stopped simulated logging/);
      },
      'trigger-long-running-operation': async (result, _args, progress) => {
        assert.match(textOf(result), /Long running operation completed/);
        assert.deepEqual(
          progress.map((p) => [p.progress, p.total]),
          [
            [1, 4],
            [2, 4],
            [3, 4],
            [4, 4],
          ],
        );
      },
      'get-roots-list': async (result) => {
        assert.match(textOf(result), /Current MCP Roots \(1 total\)/);
        assert.ok(textOf(result).includes(pathToFileURL(scratch).href));
      },
      'trigger-sampling-request': async (result, args) => {
        const request = sampled.at(-1);
        assert.ok(request, 'the server asked the client to sample');
        assert.equal(request.maxTokens, 100, 'the schema default');
        assert.ok(JSON.stringify(request.messages).includes(String(args.prompt)));
        assert.match(textOf(result), /a canned answer/);
        assert.match(textOf(result), /peers-model/);
      },
      'trigger-elicitation-request': async (result) => {
        const request = elicited.find(
          (e) => e.mode !== 'url' && Object.keys(e.requestedSchema.properties ?? {}).includes('firstLine'),
        );
        assert.ok(request, 'the server asked the client to elicit');
        const text = textOf(result);
        assert.match(text, /User provided the requested information/);
        assert.match(text, /- Name: Ada Lovelace/);
        assert.match(text, /- Email: ada@example.com/);
        // Filled in by mcpwire from the schema's default, as the user left the field untouched.
        assert.match(text, /- Favorite Integer: 42/);
        assert.match(text, /- Favorite Number: 7/);
      },
      'trigger-url-elicitation': async (result, args) => {
        const request = elicited.find((e) => e.mode === 'url');
        assert.ok(request && request.mode === 'url');
        assert.equal(request.url, args.url);
        assert.match(textOf(result), /User completed the URL elicitation flow/);
      },
    };

    const called: string[] = [];
    for (const tool of tools) {
      const args = { ...argumentsFor(tool.inputSchema), ...overrides[tool.name] };
      if (executionOf(tool) === 'required') {
        // simulate-research-query runs only as a task (SEP-1686), which McpClient has no typed method for:
        // it is called through the raw request API below instead.
        continue;
      }
      if (tool.name === 'toggle-subscriber-updates') {
        // Updates go only to subscribers, so subscribe first; the first update is sent at once.
        const uri = 'demo://resource/static/document/features.md';
        await client.subscribeResource(uri);
        const started = await client.callTool(tool.name, args);
        assert.match(textOf(started), /^Started simulated resource updated notifications/);
        await events.until(() => (updated.includes(uri) ? uri : undefined), 10_000, `an update of ${uri}`);
        called.push(tool.name);
        await client.callTool(tool.name, args);
        await client.unsubscribeResource(uri);
        continue;
      }
      const progress: Progress = [];
      const result = await client.callTool(tool.name, args, { onProgress: (p) => progress.push(p) });
      assert.notEqual(result.isError, true, `${tool.name}(${JSON.stringify(args)}): ${textOf(result)}`);
      await checks[tool.name]?.(result, args, progress);
      called.push(tool.name);
    }
    // simulate-research-query is the next test's; every other listed tool was called, and each result
    // was checked for what the tool is documented to return.
    const untested = names.filter((n) => !called.includes(n) && n !== 'simulate-research-query');
    assert.deepEqual(untested, [], 'every listed tool was called');
    const unchecked = called.filter((n) => !(n in checks) && n !== 'toggle-subscriber-updates');
    assert.deepEqual(unchecked, [], 'every result was checked');
  });

  it('runs the task-only tool as a task, and answers the elicitation it sends through tasks/result', async () => {
    const tools = await client.listAllTools();
    const research = tools.find((t) => t.name === 'simulate-research-query');
    assert.ok(research);
    assert.equal(executionOf(research), 'required');
    // Without task augmentation the server refuses it, as a tool error.
    const refused = await client.callTool('simulate-research-query', { topic: 'x' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /requires task augmentation/);
    // As a task: tools/call returns a task at once, tasks/result waits for the end. An ambiguous topic
    // makes the server ask the user to choose, with an elicitation/create tied to the task.
    const before = elicited.length;
    const created = await client.request<{ task: { taskId: string; status: string } }>('tools/call', {
      name: 'simulate-research-query',
      arguments: { ...argumentsFor(research!.inputSchema), ambiguous: true },
      task: { ttl: 60_000 },
    });
    assert.equal(created.task.status, 'working');
    const result = await client.request<CallToolResult>('tasks/result', { taskId: created.task.taskId });
    assert.equal(elicited.length, before + 1, 'the clarification was asked through onElicitation');
    const asked = elicited.at(-1);
    assert.ok(asked && asked.mode !== 'url');
    assert.ok(Object.keys(asked.requestedSchema.properties ?? {}).includes('interpretation'));
    // The answer the callback gave is the one the report was written with.
    assert.match(textOf(result), /^# Research Report: peers topic \(peers\)/);
    assert.match(textOf(result), /- \*\*Clarification\*\*: peers$/m);
  });

  it('gets a -32042 URL elicitation error from the error path', async () => {
    await assert.rejects(
      client.callTool('trigger-url-elicitation', { url: 'https://example.com/peers-error', errorPath: true }),
      (error: unknown) => {
        assert.ok(error instanceof JsonRpcError);
        assert.equal(error.code, -32042);
        const elicitations = (error.data as { elicitations?: Array<{ mode: string; url: string }> })
          .elicitations;
        assert.equal(elicitations?.[0]?.mode, 'url');
        return true;
      },
    );
  });

  it('reads every listed resource, following pagination to the end, and the templates', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
      assert.ok(pages < 100, 'pagination ends');
    } while (cursor !== undefined);
    assert.ok(uris.includes('demo://resource/static/document/features.md'));
    for (const uri of uris) {
      const read = await client.readResource(uri);
      assert.equal(read.contents.length, 1, uri);
      const [content] = read.contents as Array<{ uri: string; text?: string; blob?: string }>;
      assert.equal(content?.uri, uri);
      assert.ok((content?.text ?? content?.blob ?? '').length > 0, `${uri} has content`);
    }
    const templates = await client.listAllResourceTemplates();
    assert.deepEqual(templates.map((t) => t.uriTemplate).sort(), [
      'demo://resource/dynamic/blob/{resourceId}',
      'demo://resource/dynamic/text/{resourceId}',
    ]);
    for (const template of templates) {
      const completion = await client.complete({
        ref: { type: 'ref/resource', uri: template.uriTemplate },
        argument: { name: 'resourceId', value: '7' },
      });
      assert.deepEqual(completion.completion.values, ['7']);
      const uri = template.uriTemplate.replace('{resourceId}', '7');
      const [content] = (await client.readResource(uri)).contents as Array<{ text?: string; blob?: string }>;
      const text = content?.text ?? Buffer.from(content?.blob ?? '', 'base64').toString();
      assert.match(text, /^Resource 7: /);
    }
    await assert.rejects(client.readResource('demo://resource/dynamic/text/zero'), JsonRpcError);
  });

  it('gets every prompt, with arguments from completion where the server completes them', async () => {
    const prompts = await client.listAllPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), [
      'args-prompt',
      'completable-prompt',
      'resource-prompt',
      'simple-prompt',
    ]);
    // What a person would type where the server offers no completion.
    const plausible: Record<string, string> = { city: 'Paris', state: 'Île-de-France', resourceId: '2' };
    for (const prompt of prompts) {
      const args: Record<string, string> = {};
      for (const argument of prompt.arguments ?? []) {
        const { completion } = await client.complete({
          ref: { type: 'ref/prompt', name: prompt.name },
          argument: { name: argument.name, value: '' },
          context: { arguments: args },
        });
        const value = completion.values[0] ?? plausible[argument.name];
        assert.ok(value !== undefined, `a value for ${prompt.name}.${argument.name}`);
        args[argument.name] = value;
      }
      const result = await client.getPrompt(prompt.name, args);
      assert.ok(result.messages.length > 0, prompt.name);
      const first = result.messages[0]?.content as { type: string; text?: string };
      const expected: Record<string, RegExp> = {
        'simple-prompt': /^This is a simple prompt without arguments\.$/,
        'args-prompt': /^What's weather in Paris, Île-de-France\?$/,
        // Completion chose the department, and the name completion followed it.
        'completable-prompt': /^Please promote Alice to the head of the Engineering team\.$/,
        'resource-prompt': /^This prompt includes the Text resource with id: 2/,
      };
      assert.match(first.text ?? '', expected[prompt.name]!);
    }
  });

  it('sent only messages valid under the schema of the revision in use', async () => {
    // The probe speaks 2026-07-28; everything after it, the negotiated 2025-11-25.
    const probe: Wire = { sent: wire.sent.slice(0, 1), received: [] };
    assert.deepEqual(await schemaProblems(MODERN, probe), []);
    const rest: Wire = { sent: wire.sent.slice(1), received: wire.received };
    assert.deepEqual(await schemaProblems(HANDSHAKE, rest), []);
    // Responses of the client: to roots/list, sampling and elicitation.
    const answered = new Set(
      requestMethods(wire.received).filter((m) =>
        ['roots/list', 'sampling/createMessage', 'elicitation/create'].includes(m),
      ),
    );
    assert.deepEqual([...answered].sort(), ['elicitation/create', 'roots/list', 'sampling/createMessage']);
  });
});

// ---- mcp-server-filesystem ----

describe('mcpwire McpClient with mcp-server-filesystem over stdio', () => {
  let base: string;
  let root: string;
  let client: McpClient;
  let wire: Wire;

  before(async () => {
    base = await makeTempDir('mcpwire-peers-fs-');
    root = path.join(base, 'root');
    await mkdir(path.join(root, 'docs', 'guides'), { recursive: true });
    await mkdir(path.join(base, 'outside'));
    await writeFile(path.join(base, 'outside', 'secret.txt'), 'secret');
    await writeFile(path.join(root, 'notes.txt'), 'one\ntwo\nthree');
    await writeFile(path.join(root, 'docs', 'readme.md'), '# docs\n');
    await writeFile(path.join(root, 'docs', 'guides', 'intro.md'), '# intro\n');
    await writeFile(path.join(root, 'image.png'), PNG);
    client = new McpClient({ name: 'mcpwire-peers', version: '1.0.0', timeout: 30_000 });
    const recorded = recording(new ChildProcessTransport({ command: FILESYSTEM_BIN, args: [root] }));
    wire = recorded.wire;
    await client.connect(recorded.transport, { timeout: 30_000 });
  });

  after(async () => {
    await client?.close();
    await removeDir(base);
  });

  async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const result = await client.callTool(name, args);
    assert.notEqual(result.isError, true, `${name}: ${textOf(result)}`);
    return result;
  }

  it('falls back to the handshake era and lists the tools of the reference server', async () => {
    assert.equal(client.era, 'handshake');
    assert.equal(client.protocolVersion, HANDSHAKE);
    assert.equal(client.serverInfo?.name, 'secure-filesystem-server');
    const names = (await client.listAllTools()).map((t) => t.name);
    for (const name of [
      'read_text_file',
      'read_media_file',
      'read_multiple_files',
      'write_file',
      'edit_file',
      'create_directory',
      'list_directory',
      'list_directory_with_sizes',
      'directory_tree',
      'move_file',
      'search_files',
      'get_file_info',
      'list_allowed_directories',
    ])
      assert.ok(names.includes(name), name);
  });

  it('lists the allowed directory and its entries', async () => {
    assert.match(textOf(await call('list_allowed_directories', {})), new RegExp(root));
    const listing = textOf(await call('list_directory', { path: root }));
    assert.deepEqual(listing.split('\n').sort(), ['[DIR] docs', '[FILE] image.png', '[FILE] notes.txt']);
    const sized = textOf(await call('list_directory_with_sizes', { path: root, sortBy: 'name' }));
    assert.match(sized, /notes\.txt\s+13 B/);
    const tree = JSON.parse(textOf(await call('directory_tree', { path: path.join(root, 'docs') })));
    assert.deepEqual(
      tree.map((e: { name: string }) => e.name),
      ['guides', 'readme.md'],
    );
  });

  it('reads text (whole, head, tail), several files, and media', async () => {
    const whole = await call('read_text_file', { path: path.join(root, 'notes.txt') });
    assert.equal(textOf(whole), 'one\ntwo\nthree');
    assert.deepEqual(whole.structuredContent, { content: 'one\ntwo\nthree' });
    assert.equal(
      textOf(await call('read_text_file', { path: path.join(root, 'notes.txt'), head: 1 })),
      'one',
    );
    assert.equal(
      textOf(await call('read_text_file', { path: path.join(root, 'notes.txt'), tail: 2 })),
      'two\nthree',
    );
    const many = textOf(
      await call('read_multiple_files', {
        paths: [path.join(root, 'notes.txt'), path.join(root, 'docs', 'readme.md')],
      }),
    );
    assert.match(many, /one\ntwo\nthree/);
    assert.match(many, /# docs/);
    const media = await call('read_media_file', { path: path.join(root, 'image.png') });
    const [image] = blocksOf(media);
    assert.equal(image?.type, 'image');
    assert.equal(image?.mimeType, 'image/png');
    assert.equal(image?.data, PNG.toString('base64'));
  });

  it('writes, edits, creates, moves, searches and describes files', async () => {
    const written = path.join(root, 'written.txt');
    await call('write_file', { path: written, content: 'alpha\nbeta\n' });
    assert.equal(await readFile(written, 'utf8'), 'alpha\nbeta\n');
    const preview = textOf(
      await call('edit_file', {
        path: written,
        edits: [{ oldText: 'beta', newText: 'gamma' }],
        dryRun: true,
      }),
    );
    assert.match(preview, /-beta\n\+gamma/);
    assert.equal(await readFile(written, 'utf8'), 'alpha\nbeta\n', 'a dry run changes nothing');
    await call('edit_file', { path: written, edits: [{ oldText: 'beta', newText: 'gamma' }] });
    assert.equal(await readFile(written, 'utf8'), 'alpha\ngamma\n');
    await call('create_directory', { path: path.join(root, 'made', 'deeper') });
    await call('move_file', { source: written, destination: path.join(root, 'made', 'moved.txt') });
    assert.equal(await readFile(path.join(root, 'made', 'moved.txt'), 'utf8'), 'alpha\ngamma\n');
    const found = textOf(await call('search_files', { path: root, pattern: '**/*.md' }));
    assert.deepEqual(found.split('\n').sort(), [
      path.join(root, 'docs', 'guides', 'intro.md'),
      path.join(root, 'docs', 'readme.md'),
    ]);
    const info = textOf(await call('get_file_info', { path: path.join(root, 'notes.txt') }));
    assert.match(info, /size: 13/);
    assert.match(info, /isFile: true/);
  });

  it('refuses a path outside the allowed directory, as a tool error', async () => {
    const refused = await client.callTool('read_text_file', {
      path: path.join(base, 'outside', 'secret.txt'),
    });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /Access denied/);
  });

  it('sent only messages valid under the schema of the revision in use', async () => {
    assert.deepEqual(await schemaProblems(MODERN, { sent: wire.sent.slice(0, 1), received: [] }), []);
    assert.deepEqual(
      await schemaProblems(HANDSHAKE, { sent: wire.sent.slice(1), received: wire.received }),
      [],
    );
  });
});

describe('mcp-server-filesystem takes its allowed directories from mcpwire roots', () => {
  it('asks for roots after initialization and serves the directory the client names', async () => {
    const base = await makeTempDir('mcpwire-peers-roots-');
    const started = path.join(base, 'started');
    const rooted = path.join(base, 'rooted');
    await mkdir(started);
    await mkdir(rooted);
    await writeFile(path.join(rooted, 'from-roots.txt'), 'found through roots');
    const events = new Events();
    let asked = 0;
    let stderr = '';
    const client = new McpClient({
      name: 'mcpwire-peers',
      version: '1.0.0',
      roots: () => {
        asked++;
        return [{ uri: pathToFileURL(rooted).href, name: 'rooted' }];
      },
    });
    try {
      await client.connect(
        new ChildProcessTransport({
          command: FILESYSTEM_BIN,
          args: [started],
          stderr: (text) => {
            stderr += text;
            events.nudge();
          },
        }),
      );
      // The server asks for roots once initialized and says on stderr when it has switched to them.
      await events.until(
        () => (/Updated allowed directories from MCP roots/.test(stderr) ? true : undefined),
        10_000,
        'the server to take the roots',
      );
      assert.equal(asked, 1);
      const text = textOf(await client.callTool('list_allowed_directories'));
      assert.match(text, new RegExp(rooted));
      assert.doesNotMatch(text, new RegExp(`${started}$`, 'm'));
      const read = await client.callTool('read_text_file', { path: path.join(rooted, 'from-roots.txt') });
      assert.equal(textOf(read), 'found through roots');
    } finally {
      await client.close();
      await removeDir(base);
    }
  });
});

// ---- the host over three servers ----

describe('McpHost over mcp-server-everything, mcp-server-filesystem and mcpwire serve fs', () => {
  let folder: string;
  let host: McpHost;

  before(async () => {
    folder = await makeTempDir('mcpwire-peers-host-');
    await writeFile(path.join(folder, 'shared.txt'), 'one file, two servers');
    const config = parseConfig(
      {
        mcpServers: {
          everything: { command: EVERYTHING_BIN },
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the configuration's own ${VAR} syntax, expanded by parseConfig.
          filesystem: { command: FILESYSTEM_BIN, args: ['${PEERS_FOLDER}'] },
          // biome-ignore lint/suspicious/noTemplateCurlyInString: as above.
          files: { command: process.execPath, args: [BIN, 'serve', 'fs', '--root', '${PEERS_FOLDER}'] },
        },
      },
      { ...process.env, PEERS_FOLDER: folder },
      REPO_ROOT,
    );
    host = new McpHost(config, {
      healthInterval: 0,
      restart: false,
      startTimeout: 30_000,
      client: { onElicitation: async () => ({ action: 'decline' }) },
    });
    await host.start();
  });

  after(async () => {
    await host?.shutdown();
    await removeDir(folder);
  });

  it('starts all three, each in the era it speaks', () => {
    assert.deepEqual(
      host.status().map((s) => [s.name, s.state]),
      [
        ['everything', 'ready'],
        ['filesystem', 'ready'],
        ['files', 'ready'],
      ],
    );
    assert.equal(host.client('everything').era, 'handshake');
    assert.equal(host.client('filesystem').era, 'handshake');
    // mcpwire's own server answers server/discover: the host talks 2026-07-28 to it.
    assert.equal(host.client('files').era, 'stateless');
    assert.equal(host.client('files').protocolVersion, MODERN);
  });

  it('lists every tool of every server as <server>__<tool>', async () => {
    const tools = host.tools();
    for (const server of ['everything', 'filesystem', 'files']) {
      const own = (await host.client(server).listAllTools()).map((t) => t.name).sort();
      const listed = tools.filter((t) => t.server === server);
      assert.deepEqual(listed.map((t) => t.originalName).sort(), own);
      for (const tool of listed) assert.equal(tool.name, `${server}__${tool.originalName}`);
    }
    const names = tools.map((t) => t.name);
    assert.equal(new Set(names).size, names.length, 'no two tools share a name');
    for (const name of ['everything__echo', 'filesystem__list_directory', 'files__list_directory'])
      assert.ok(names.includes(name), name);
    assert.ok(host.prompts().some((p) => p.name === 'everything__simple-prompt'));
  });

  it('routes calls to the server the name names', async () => {
    assert.equal(textOf(await host.callTool('everything__echo', { message: 'via host' })), 'Echo: via host');
    const file = path.join(folder, 'shared.txt');
    const fromReference = await host.callTool('filesystem__read_text_file', { path: file });
    const fromMcpwire = await host.callTool('files__read_text_file', { path: file });
    assert.equal(textOf(fromReference), 'one file, two servers');
    assert.equal(textOf(fromMcpwire), 'one file, two servers');
    // The same tool name on two servers stays two tools: each listing names its own server's files.
    assert.match(textOf(await host.callTool('filesystem__list_directory', { path: folder })), /shared\.txt/);
    assert.match(textOf(await host.callTool('files__list_directory', { path: '.' })), /shared\.txt/);
    const prompt = await host.getPrompt('everything__args-prompt', { city: 'Lyon' });
    assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: "What's weather in Lyon?" });
    // A resource is read from the server that listed it.
    const listed = host.resources().find((r) => r.server === 'everything');
    assert.ok(listed);
    assert.equal((await host.readResource(listed.uri)).contents[0]?.uri, listed.uri);
    const elicited = await host.callTool('everything__trigger-elicitation-request');
    assert.match(textOf(elicited), /User declined/);
    assert.throws(() => host.callTool('nowhere__echo'), RoutingError);
  });

  it('shuts every server down and leaves no process behind', async () => {
    const pids = host.status().map((s) => s.pid);
    assert.equal(pids.filter((p) => p !== undefined).length, 3);
    await host.shutdown();
    assert.deepEqual(
      host.status().map((s) => s.state),
      ['stopped', 'stopped', 'stopped'],
    );
    for (const pid of pids) {
      assert.throws(() => process.kill(pid!, 0), /ESRCH/, `process ${pid} is gone`);
    }
  });
});
