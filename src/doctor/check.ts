// What a doctor check is: an id, what it tests, the rule it holds the server to and where that rule is
// written, a hint for fixing a failure, and the test itself against a fresh server process.

import type { HttpPeer } from './http-peer.js';
import type { Peer } from './peer.js';
import type { StdioPeer } from './stdio-peer.js';

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip';

export interface CheckRule {
  /** Where the rule is written: "JSON-RPC 2.0 §5.1", "MCP 2025-11-25 basic/lifecycle", ... */
  source: string;
  text: string;
}

export interface CheckOutcome {
  status: CheckStatus;
  details: string[];
}

interface CheckBase {
  id: string;
  title: string;
  rule: CheckRule;
  hint: string;
}

/**
 * A check of JSON-RPC or MCP, which runs over either transport; or one of a transport's own rules
 * (`on`), which runs only there. Each resolves to warn/skip outcomes, or nothing for a pass, and throws
 * CheckFailure for a failure.
 */
export type Check =
  | (CheckBase & { on?: undefined; run(peer: Peer): Promise<CheckOutcome | undefined> })
  | (CheckBase & { on: 'stdio'; run(peer: StdioPeer): Promise<CheckOutcome | undefined> })
  | (CheckBase & { on: 'http'; run(peer: HttpPeer): Promise<CheckOutcome | undefined> });

export type CheckTransport = 'stdio' | 'http';

/** Whether the check applies to a server over this transport. */
export function appliesTo(check: Check, transport: CheckTransport): boolean {
  return check.on === undefined || check.on === transport;
}

export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
}

export function fail(message: string): never {
  throw new CheckFailure(message);
}

export function ensure(condition: unknown, message: string): asserts condition {
  if (!condition) fail(message);
}

export const warn = (...details: string[]): CheckOutcome => ({ status: 'warn', details });
export const skip = (...details: string[]): CheckOutcome => ({ status: 'skip', details });

export const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

/** The error object of a response, or a failure that says what came instead. */
export function errorOf(
  response: Record<string, unknown>,
  expected: string,
): { code: number; message: string } {
  const error = response.error as { code?: unknown; message?: unknown } | undefined;
  if (!error) fail(`expected ${expected}, got a result: ${JSON.stringify(response.result).slice(0, 200)}`);
  ensure(
    typeof error.code === 'number' && typeof error.message === 'string',
    `malformed error object: ${JSON.stringify(error)}`,
  );
  return error as { code: number; message: string };
}

/** After an error, the server must still answer. */
export async function stillAlive(peer: Peer): Promise<void> {
  const response = await peer
    .request('ping')
    .catch((error: Error) => fail(`the server stopped answering: ${error.message}`));
  ensure('result' in response, `ping after the error failed: ${JSON.stringify(response.error)}`);
}
