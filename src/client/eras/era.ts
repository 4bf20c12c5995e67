// One interface for the two ways a client talks to a server, so that McpClient's typed methods never ask
// which era they are in. The handshake era (2024-11-05 … 2025-11-25) negotiated a session with
// initialize; the stateless era (2026-07-28) sends every request with its envelope and no session.

import type { LoggingLevel } from '../../protocol/types.js';
import type { CallOptions } from '../call-options.js';

export type EraName = 'handshake' | 'stateless';

export interface ClientEra {
  readonly name: EraName;
  /** Sends one request, in this era's way, and resolves with its final result. */
  send<T>(method: string, params: Record<string, unknown> | undefined, options: CallOptions): Promise<T>;
  ping(options?: CallOptions): Promise<Record<string, never>>;
  subscribe(uri: string, options?: CallOptions): Promise<Record<string, never>>;
  unsubscribe(uri: string, options?: CallOptions): Promise<Record<string, never>>;
  setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<Record<string, never>>;
  /** Ends what the era keeps open (the stateless era's listen stream). */
  close(): void;
}
