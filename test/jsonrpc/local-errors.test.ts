// Local failures are McpwireErrors with a string code, told apart without matching messages; an error
// from the peer is a JsonRpcError and never one of them.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient, UnsupportedVersionError } from '../../src/client/client.js';
import { ConfigError, parseConfig } from '../../src/host/config.js';
import { RoutingError } from '../../src/host/host.js';
import { Connection } from '../../src/jsonrpc/connection.js';
import { ErrorCode } from '../../src/jsonrpc/error-codes.js';
import {
  ConnectionClosedError,
  JsonRpcError,
  RequestCancelledError,
  RequestTimeoutError,
} from '../../src/jsonrpc/errors.js';
import { McpwireError } from '../../src/jsonrpc/local-errors.js';
import { createInMemoryPair } from '../../src/transport/memory.js';

describe('local errors', () => {
  it('each local error class is an McpwireError with its own code', () => {
    const cases: Array<[McpwireError, string]> = [
      [new ConnectionClosedError('x', { message: 'gone' }), 'CONNECTION_CLOSED'],
      [new RequestTimeoutError('x', 1, 10, 'idle'), 'REQUEST_TIMEOUT'],
      [new RequestCancelledError('x'), 'REQUEST_CANCELLED'],
      [new UnsupportedVersionError('1999-01-01'), 'UNSUPPORTED_VERSION'],
      [new RoutingError('no such server'), 'ROUTING'],
      [new ConfigError('bad'), 'CONFIG'],
    ];
    for (const [error, code] of cases) {
      assert.ok(error instanceof McpwireError, error.name);
      assert.equal(error.code, code, error.name);
    }
  });

  it('an error from the peer is a JsonRpcError, not a local one', () => {
    const error = new JsonRpcError(ErrorCode.MethodNotFound, 'Method not found: x');
    assert.equal(error instanceof McpwireError, false);
  });

  it('a client used before connect() rejects with NOT_CONNECTED', async () => {
    const client = new McpClient({ name: 't', version: '1' });
    await assert.rejects(
      client.callTool('x'),
      (e: unknown) => e instanceof McpwireError && e.code === 'NOT_CONNECTED',
    );
    await assert.rejects(
      client.ping(),
      (e: unknown) => e instanceof McpwireError && e.code === 'NOT_CONNECTED',
    );
  });

  it('a configuration that cannot be used is a ConfigError (CONFIG)', () => {
    assert.throws(
      () => parseConfig({ mcpServers: 5 }, {}, '/tmp'),
      (e: unknown) => e instanceof ConfigError && e.code === 'CONFIG',
    );
  });

  it('a request pending when the connection closes rejects with CONNECTION_CLOSED', async () => {
    const [a, b] = createInMemoryPair();
    const connection = new Connection(a);
    connection.start();
    b.start({ message() {}, frameError() {}, closed() {} });
    const pending = connection.request('slow');
    await b.close();
    await assert.rejects(
      pending,
      (e: unknown) => e instanceof McpwireError && e.code === 'CONNECTION_CLOSED',
    );
  });
});
