// The one context every handler gets: the negotiated version, the client's capabilities and info, the
// request id, per-session state, an AbortSignal, progress() and log(), for tools, prompts and resources.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestContext } from '../../src/protocol/context.js';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { deferred, Wire } from '../support/wire.js';

function describeContext(ctx: RequestContext): string {
  return JSON.stringify({
    version: ctx.protocolVersion,
    capabilities: ctx.clientCapabilities,
    client: ctx.clientInfo,
    id: ctx.requestId,
  });
}

function server(): McpServer {
  const s = new McpServer({ name: 'context', version: '1.0.0' });
  s.tool({ name: 'whoami' }, (_args, ctx) => ({ content: [{ type: 'text', text: describeContext(ctx) }] }));
  s.prompt({ name: 'whoami' }, (_args, ctx) => ({
    messages: [{ role: 'user', content: { type: 'text', text: describeContext(ctx) } }],
  }));
  s.resource({ uri: 'mem://whoami', name: 'whoami' }, (uri, ctx) => [{ uri, text: describeContext(ctx) }]);
  return s;
}

const CLIENT = { name: 'test-client', version: '9.8.7' };
const CAPABILITIES = { roots: { listChanged: true }, sampling: {}, experimental: { 'x-feature': {} } };

describe('handler context', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[lifecycle.negotiated-version] gives tools, prompts and resources the negotiated version, client info and capabilities (${revision})`, async () => {
      const wire = await Wire.open(server(), revision, { capabilities: CAPABILITIES, clientInfo: CLIENT });
      const tool = await wire.request('tools/call', { name: 'whoami' }, 'tool-call');
      const prompt = await wire.request('prompts/get', { name: 'whoami' }, 'prompt-get');
      const resource = await wire.request('resources/read', { uri: 'mem://whoami' }, 'resource-read');
      const seen = [
        (tool.result as { content: Array<{ text: string }> }).content[0]!.text,
        (prompt.result as { messages: Array<{ content: { text: string } }> }).messages[0]!.content.text,
        (resource.result as { contents: Array<{ text: string }> }).contents[0]!.text,
      ].map((text) => JSON.parse(text));
      assert.deepEqual(seen, [
        { version: revision, capabilities: CAPABILITIES, client: CLIENT, id: 'tool-call' },
        { version: revision, capabilities: CAPABILITIES, client: CLIENT, id: 'prompt-get' },
        { version: revision, capabilities: CAPABILITIES, client: CLIENT, id: 'resource-read' },
      ]);
      await wire.close();
    });
  }

  it('keeps sessionState for the life of a session, apart from other sessions', async () => {
    const s = new McpServer({ name: 'context', version: '1.0.0' });
    s.tool({ name: 'count' }, (_args, ctx) => {
      const n = ((ctx.sessionState.get('n') as number | undefined) ?? 0) + 1;
      ctx.sessionState.set('n', n);
      return { content: [{ type: 'text', text: String(n) }] };
    });
    const a = await Wire.open(s, '2025-11-25');
    const b = await Wire.open(s, '2025-11-25');
    const count = async (wire: Wire) =>
      (await wire.result<{ content: Array<{ text: string }> }>('tools/call', { name: 'count' })).content[0]!
        .text;
    assert.deepEqual([await count(a), await count(a), await count(b), await count(a)], ['1', '2', '1', '3']);
    await a.close();
    await b.close();
  });

  it('aborts the signal of a request in flight when the connection closes', async () => {
    const started = deferred();
    const aborted = deferred<boolean>();
    const s = new McpServer({ name: 'context', version: '1.0.0' });
    s.tool({ name: 'wait' }, async (_args, { signal }) => {
      assert.equal(signal.aborted, false);
      started.resolve();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      aborted.resolve(signal.aborted);
      return { content: [] };
    });
    const wire = await Wire.open(s, '2025-11-25');
    wire.send({ jsonrpc: '2.0', id: 'w', method: 'tools/call', params: { name: 'wait' } });
    await started.promise;
    await wire.close();
    assert.equal(await aborted.promise, true);
  });

  it('[progress.token, logging.message] lets handlers destructure progress() and log() from the context', async () => {
    const s = new McpServer({ name: 'context', version: '1.0.0' });
    s.tool({ name: 'steps' }, (_args, { progress, log }) => {
      progress(1, 2, 'first');
      log('info', 'halfway', 'steps');
      progress(2, 2, 'second');
      return { content: [] };
    });
    const wire = await Wire.open(s, '2025-11-25');
    await wire.result('tools/call', { name: 'steps', _meta: { progressToken: 'p' } });
    assert.deepEqual(wire.notifications('notifications/progress'), [
      { progressToken: 'p', progress: 1, total: 2, message: 'first' },
      { progressToken: 'p', progress: 2, total: 2, message: 'second' },
    ]);
    assert.deepEqual(wire.notifications('notifications/message'), [
      { level: 'info', logger: 'steps', data: 'halfway' },
    ]);
    await wire.close();
  });
});
