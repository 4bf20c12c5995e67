// Log messages from the server reach onLog as sent; setLoggingLevel sets the level the server filters at,
// in both eras (logging/setLevel, or the envelope of each request in the stateless era).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LoggingMessageNotificationParams } from '../../src/protocol/types.js';
import { McpServer } from '../../src/server/server.js';
import { connectToFake, connectToServer } from '../support/fake-mcp-server.js';

function chattyServer(): McpServer {
  const server = new McpServer({ name: 'chatty', version: '1.0.0' });
  server.tool({ name: 'work' }, (_args, ctx) => {
    ctx.log('debug', 'details', 'engine');
    ctx.log('info', { step: 1, of: 2 }, 'engine');
    ctx.log('error', 'it broke');
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return server;
}

describe('McpClient logging', () => {
  it('hands every notifications/message to onLog, as sent', async () => {
    const logs: LoggingMessageNotificationParams[] = [];
    let got!: () => void;
    const second = new Promise<void>((resolve) => {
      got = resolve;
    });
    const { client, server } = await connectToFake({
      onLog: (message) => {
        logs.push(message);
        if (logs.length === 2) got();
      },
    });
    server.notify('notifications/message', {
      level: 'warning',
      logger: 'db',
      data: { slow: 'query', ms: 812 },
    });
    server.notify('notifications/message', { level: 'emergency', data: 'disk full' });
    await second;
    assert.deepEqual(logs, [
      { level: 'warning', logger: 'db', data: { slow: 'query', ms: 812 } },
      { level: 'emergency', data: 'disk full' },
    ]);
    await client.close();
  });

  it('handshake: gets every level until it sets one, then only that level and above', async () => {
    const logs: LoggingMessageNotificationParams[] = [];
    const { client } = await connectToServer(chattyServer(), { onLog: (m) => logs.push(m) });
    await client.callTool('work');
    assert.deepEqual(
      logs.map((l) => l.level),
      ['debug', 'info', 'error'],
    );
    logs.length = 0;
    await client.setLoggingLevel('info');
    await client.callTool('work');
    assert.deepEqual(logs, [
      { level: 'info', logger: 'engine', data: { step: 1, of: 2 } },
      { level: 'error', data: 'it broke' },
    ]);
    await client.close();
  });

  it('stateless: sends the level with each request once set, and gets the messages at that level', async () => {
    const logs: LoggingMessageNotificationParams[] = [];
    const { client, wire } = await connectToServer(chattyServer(), {
      era: 'stateless',
      onLog: (m) => logs.push(m),
    });
    await client.callTool('work');
    assert.deepEqual(logs, [], 'a stateless request that names no level gets no log messages');
    const sentBefore = wire.sent.length;
    await client.setLoggingLevel('error');
    assert.equal(wire.sent.length, sentBefore, 'no logging/setLevel in the stateless era');
    await client.callTool('work');
    assert.deepEqual(logs, [{ level: 'error', data: 'it broke' }]);
    await client.close();
  });
});
