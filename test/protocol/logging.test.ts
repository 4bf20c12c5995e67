// logging/setLevel and notifications/message: the level filter, invalid levels, the message's shape.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOGGING_LEVELS } from '../../src/protocol/logging.js';
import type { LoggingLevel } from '../../src/protocol/types.js';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

const ALL: LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

function server(): McpServer {
  const s = new McpServer({ name: 'logs', version: '1.0.0' });
  s.tool({ name: 'log_all' }, (_args, ctx) => {
    for (const level of ALL) ctx.log(level, `at ${level}`);
    return { content: [] };
  });
  return s;
}

/** The levels of the log messages a call to log_all produced. */
async function loggedLevels(wire: Wire): Promise<string[]> {
  const before = wire.notifications('notifications/message').length;
  await wire.result('tools/call', { name: 'log_all' });
  return wire
    .notifications('notifications/message')
    .slice(before)
    .map((p) => p.level as string);
}

describe('logging', () => {
  it('[logging.levels] orders the eight RFC 5424 severities from debug to emergency', () => {
    assert.deepEqual(LOGGING_LEVELS, ALL);
  });

  it('[logging.message, capabilities.logging] sends every level until the client sets one', async () => {
    const wire = await Wire.open(server(), '2025-11-25');
    assert.deepEqual(await loggedLevels(wire), ALL);
    await wire.close();
  });

  for (const [index, threshold] of ALL.entries()) {
    it(`[logging.set-level] after setLevel ${threshold}, sends only ${threshold} and more severe`, async () => {
      const wire = await Wire.open(server(), '2025-06-18');
      assert.deepEqual(await wire.result('logging/setLevel', { level: threshold }), {});
      assert.deepEqual(await loggedLevels(wire), ALL.slice(index));
      await wire.close();
    });
  }

  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[logging.invalid-level, messages.schema-valid] answers an invalid level with -32602 and keeps the old one (${revision})`, async () => {
      const wire = await Wire.open(server(), revision);
      await wire.result('logging/setLevel', { level: 'error' });
      for (const level of ['verbose', 'INFO', 3, null, undefined]) {
        const error = await wire.error('logging/setLevel', level === undefined ? {} : { level });
        assert.equal(error.code, -32602, String(level));
        assert.match(error.message, /debug, info, notice, warning, error, critical, alert, emergency/);
      }
      assert.deepEqual(await loggedLevels(wire), ['error', 'critical', 'alert', 'emergency']);
      await wire.close();
    });
  }

  it('[logging.message] carries level, logger when given, and any JSON data', async () => {
    const s = new McpServer({ name: 'logs', version: '1.0.0' });
    s.tool({ name: 'structured' }, (_args, ctx) => {
      ctx.log('warning', { disk: 'full', free: 0 }, 'storage');
      ctx.log('info', ['a', 1]);
      return { content: [] };
    });
    const wire = await Wire.open(s, '2024-11-05');
    await wire.result('tools/call', { name: 'structured' });
    assert.deepEqual(wire.notifications('notifications/message'), [
      { level: 'warning', logger: 'storage', data: { disk: 'full', free: 0 } },
      { level: 'info', data: ['a', 1] },
    ]);
    await wire.close();
  });

  it('[logging.set-level] filters server-wide log messages per session, by each session’s own level', async () => {
    const s = server();
    const quiet = await Wire.open(s, '2025-11-25');
    const loud = await Wire.open(s, '2025-03-26');
    await quiet.result('logging/setLevel', { level: 'critical' });
    s.log('error', 'disk almost full', 'storage');
    s.log('alert', 'disk full', 'storage');
    await quiet.settle();
    await loud.settle();
    assert.deepEqual(
      quiet.notifications('notifications/message').map((p) => p.data),
      ['disk full'],
    );
    assert.deepEqual(
      loud.notifications('notifications/message').map((p) => p.data),
      ['disk almost full', 'disk full'],
    );
    await quiet.close();
    await loud.close();
  });
});
