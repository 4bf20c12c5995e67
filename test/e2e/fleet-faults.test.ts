// Faults of a fleet (three `mcpwire serve everything --redis` instances behind HAProxy on redis-server,
// all started here): an instance killed with SIGKILL in the middle of a stream, and Redis gone a while.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import { type Fleet, startFleet } from '../support/fleet-harness.js';

const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

interface SseEvent {
  id?: string;
  data: string;
}

/** Reads SSE events off a fetch body, one at a time. */
class Events {
  private buffer = '';
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  constructor(response: Response) {
    this.reader = response.body!.getReader();
  }
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event: SseEvent = { data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) event.id = line.slice(3).trim();
          if (line.startsWith('data:')) event.data += line.slice(5).trim();
        }
        return event;
      }
      const { value, done } = await this.reader.read();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }
  cancel(): Promise<void> {
    return this.reader.cancel().catch(() => undefined);
  }
}

async function initialize(url: string): Promise<Record<string, string>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'faults', version: '1' },
      },
    }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  const id = response.headers.get('mcp-session-id');
  assert.ok(id);
  await response.text();
  return { ...HEADERS, 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-11-25' };
}

describe('faults of a fleet', { timeout: 120_000 }, () => {
  let fleet: Fleet;

  before(async () => {
    fleet = await startFleet(3);
  });

  after(async () => {
    await fleet?.stop();
  });

  it('an instance killed mid-stream: the client resumes on another, gets what was stored, and the lost request fails with a clear error', async () => {
    const headers = await initialize(fleet.url);
    const call = await fetch(fleet.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'longRunningOperation',
          arguments: { duration: 600, steps: 6000 },
          _meta: { progressToken: 't' },
        },
      }),
    });
    assert.equal(call.status, 200);
    const events = new Events(call);
    const priming = await events.next();
    assert.ok(priming?.id);
    // The stream's id names the instance running the request.
    const runner = fleet.instances.find((i) => priming.id!.startsWith(`${i.id}~`));
    assert.ok(runner, `no instance owns stream ${priming.id}`);
    const seen: unknown[] = [];
    for (let i = 0; i < 2; i++) seen.push(JSON.parse((await events.next())!.data));
    await runner.kill();
    await events.cancel();

    // Through the balancer, from the priming event: another instance answers.
    const resumed = await fetch(fleet.url, {
      headers: { ...headers, Accept: 'text/event-stream', 'Last-Event-ID': priming.id },
    });
    assert.equal(resumed.status, 200);
    const replay = new Events(resumed);
    const messages: Array<Record<string, unknown>> = [];
    for (;;) {
      const event = await replay.next();
      if (!event) break;
      if (event.data) messages.push(JSON.parse(event.data) as Record<string, unknown>);
    }
    // Nothing it had been sent is lost: the progress it read before the kill comes again, in order.
    assert.deepEqual(messages.slice(0, seen.length), seen);
    const last = messages.at(-1) as { id?: unknown; error?: { message?: string } };
    assert.equal(last.id, 7);
    assert.match(last.error?.message ?? '', /stopped before answering.*send the request again/);
  });

  it('Redis gone: requests fail at once with 503 and a reason, nothing crashes, and service comes back with Redis', async () => {
    await fleet.redis.stop();
    for (let i = 0; i < 3; i++) {
      const refused = await fetch(fleet.url, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'f', version: '1' },
          },
        }),
      });
      assert.equal(refused.status, 503);
      assert.match(await refused.text(), /shared store cannot be reached/);
    }
    await fleet.redis.start();
    // The instances reconnect by themselves (with a growing delay): the first few tries may still fail.
    let served = 0;
    for (let attempt = 0; attempt < 200 && served < 3; attempt++) {
      const answer = await fetch(fleet.url, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'f', version: '1' },
          },
        }),
      });
      await answer.text();
      if (answer.status === 200) served++;
      else {
        assert.equal(answer.status, 503);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    assert.equal(served, 3);
    // The bus is back too: a sampling answer POSTed to another instance reaches the one that asked.
    const client = new McpClient({
      name: 'after-restart',
      version: '1',
      era: 'handshake',
      onSampling: async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'still here' },
        model: 'm',
      }),
    });
    await client.connect(new HttpClientTransport(fleet.url));
    try {
      for (let i = 0; i < 3; i++) {
        const sampled = await client.callTool('sampleLLM', { prompt: `p${i}` });
        assert.match(JSON.stringify(sampled.content), /still here/);
      }
    } finally {
      await client.close();
    }
    for (const instance of fleet.instances.filter((i) => i.child.signalCode === null)) {
      assert.equal(instance.child.exitCode, null, 'an instance exited');
    }
  });
});
