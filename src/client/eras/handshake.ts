// The handshake era from the client's side: initialize negotiates the revision and the session, the
// transport is told the version, and every request after that is a plain request on the connection.

import type { Connection } from '../../jsonrpc/connection.js';
import { McpwireError } from '../../jsonrpc/local-errors.js';
import type { Transport } from '../../jsonrpc/transport.js';
import { Method, Notification } from '../../protocol/methods.js';
import type {
  ClientCapabilities,
  Implementation,
  InitializeResult,
  LoggingLevel,
} from '../../protocol/types.js';
import { HANDSHAKE_VERSIONS, isHandshakeVersion } from '../../protocol/versions.js';
import type { CallOptions } from '../call-options.js';
import type { ClientEra } from './era.js';

/** The server's answer named a revision this client cannot speak, or the era it needs was not offered. */
export class UnsupportedVersionError extends McpwireError {
  override readonly name = 'UnsupportedVersionError';
  constructor(readonly serverVersion: unknown) {
    super(
      'UNSUPPORTED_VERSION',
      `the server answered with protocol version ${JSON.stringify(serverVersion)}, which mcpwire does not speak (it speaks ${HANDSHAKE_VERSIONS.join(', ')})`,
    );
  }
}

export interface HandshakeRequest {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
}

export class HandshakeEra implements ClientEra {
  readonly name = 'handshake';

  private constructor(
    private readonly connection: Connection,
    readonly result: InitializeResult,
  ) {}

  /** initialize, then notifications/initialized; the connection is closed again when it fails. */
  static async open(
    connection: Connection,
    transport: Transport,
    request: HandshakeRequest,
    timeout: number | undefined,
  ): Promise<HandshakeEra> {
    let result: InitializeResult;
    try {
      result = await connection.request<InitializeResult>(Method.Initialize, { ...request }, { timeout });
    } catch (error) {
      // A failed handshake (an error answer, a timeout) used to leave the transport open: a spawned server
      // kept running although this client can never be connected again. End it, as for an unusable
      // version; not awaited, so that the caller gets the handshake's error at once.
      void connection.close().catch(() => {});
      throw error;
    }
    if (!isHandshakeVersion(result?.protocolVersion)) {
      await connection.close().catch(() => {});
      throw new UnsupportedVersionError(result?.protocolVersion);
    }
    // Before initialized goes out, so that it already carries the version where the transport names it.
    transport.setProtocolVersion?.(result.protocolVersion);
    connection.notify(Notification.Initialized);
    return new HandshakeEra(connection, result);
  }

  send<T>(method: string, params: Record<string, unknown> | undefined, options: CallOptions): Promise<T> {
    // The connection's own promise, handed out as it is: no second promise and turn per call.
    return this.connection.request<T>(method, params, options);
  }

  ping(options?: CallOptions): Promise<Record<string, never>> {
    return this.connection.request(Method.Ping, undefined, options);
  }

  subscribe(uri: string, options?: CallOptions): Promise<Record<string, never>> {
    return this.connection.request(Method.ResourcesSubscribe, { uri }, options);
  }

  unsubscribe(uri: string, options?: CallOptions): Promise<Record<string, never>> {
    return this.connection.request(Method.ResourcesUnsubscribe, { uri }, options);
  }

  setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<Record<string, never>> {
    return this.connection.request(Method.LoggingSetLevel, { level }, options);
  }

  close(): void {}
}
