// Cancelling a call with an AbortSignal: the call rejects at once, the server is sent
// notifications/cancelled for that request and stops; an answer that arrives anyway is dropped.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConnectionProblem } from '../../src/jsonrpc/connection.js';
import { RequestCancelledError } from '../../src/jsonrpc/errors.js';
import { McpServer } from '../../src/server/server.js';
import { connectToFake, connectToServer, type Message, rejection } from '../support/fake-mcp-server.js';

describe('McpClient cancellation', () => {
  it('rejects the call and sends notifications/cancelled with its id and the reason', async () => {
    const { client, server } = await connectToFake();
    const controller = new AbortController();
    const calling = client.callTool('slow', {}, { signal: controller.signal });
    const request = await server.request('tools/call');
    controller.abort(new Error('the user pressed stop'));
    const error = await rejection(calling);
    assert.ok(error instanceof RequestCancelledError, String(error));
    assert.equal(error.method, 'tools/call');
    assert.match(error.message, /the user pressed stop/);
    const cancelled = await server.notification('notifications/cancelled');
    assert.deepEqual(cancelled.params, { requestId: request.id, reason: 'the user pressed stop' });
    await client.close();
  });

  it('sends nothing for a signal that is already aborted', async () => {
    const { client, server } = await connectToFake();
    const error = await rejection(client.callTool('never', {}, { signal: AbortSignal.abort() }));
    assert.ok(error instanceof RequestCancelledError, String(error));
    // A ping after it is the first request the server gets.
    const pinging = client.ping();
    server.reply((await server.request('ping')).id, {});
    await pinging;
    assert.deepEqual(server.methods(), ['initialize', 'notifications/initialized', 'ping']);
    await client.close();
  });

  it('drops an answer that arrives after the cancellation, and goes on', async () => {
    const problems: ConnectionProblem[] = [];
    const { client, server } = await connectToFake({ onProblem: (p) => problems.push(p) });
    const controller = new AbortController();
    const calling = client.callTool('slow', {}, { signal: controller.signal });
    const request = await server.request('tools/call');
    controller.abort();
    await rejection(calling);
    server.reply(request.id, { content: [{ type: 'text', text: 'too late' }] });
    const pinging = client.ping();
    server.reply((await server.request('ping')).id, {});
    assert.deepEqual(await pinging, {});
    assert.deepEqual(
      problems.map((p) => p.kind),
      ['unknown-response'],
    );
    await client.close();
  });

  for (const era of ['handshake', 'stateless'] as const) {
    it(`${era}: the tool's signal at the server aborts, and the server never answers`, async () => {
      const server = new McpServer({ name: 'stoppable', version: '1.0.0' });
      let started!: () => void;
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      let stopped!: (reason: unknown) => void;
      const serverSawAbort = new Promise<unknown>((resolve) => {
        stopped = resolve;
      });
      server.tool({ name: 'wait' }, (_args, ctx) => {
        started();
        return new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            stopped(ctx.signal.reason);
            reject(new Error('stopped'));
          });
        });
      });
      const { client, wire } = await connectToServer(server, { era });
      const controller = new AbortController();
      const calling = client.callTool('wait', {}, { signal: controller.signal });
      await running;
      controller.abort();
      assert.ok((await rejection(calling)) instanceof RequestCancelledError);
      assert.ok(await serverSawAbort, 'the handler was aborted with a reason');
      await client.ping();
      const call = (wire.sent as Message[]).find((m) => m.method === 'tools/call')!;
      assert.equal(
        (wire.peer!.sent as Message[]).some((m) => m.id === call.id),
        false,
        'no response to the cancelled call',
      );
      await client.close();
    });
  }
});
