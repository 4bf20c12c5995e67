// Runs checks against a server, each against a fresh one (a new process over stdio, a new session over
// HTTP), two at a time.

import type { CloseReason } from '../jsonrpc/errors.js';
import { httpRefusal, notMcp, unreachable } from '../transport/http/client-failures.js';
import {
  appliesTo,
  type Check,
  CheckFailure,
  type CheckOutcome,
  type CheckRule,
  type CheckStatus,
  type CheckTransport,
} from './check.js';
import { allChecks } from './checks/index.js';
import { ACCEPT_BOTH, HttpPeer, type HttpTarget } from './http-peer.js';
import { describeExit, initializeMessage, type Peer, PeerRefused, PeerTimeout } from './peer.js';
import { type PeerCommand, StdioPeer } from './stdio-peer.js';

/** The server under examination: a command to start over stdio, or a URL. */
export type DoctorTarget = PeerCommand | HttpTarget;

export function transportOf(target: DoctorTarget): CheckTransport {
  return 'url' in target ? 'http' : 'stdio';
}

export interface CheckResult {
  id: string;
  title: string;
  status: CheckStatus;
  details: string[];
  rule: CheckRule;
  hint?: string;
  durationMs: number;
}

export interface DoctorOptions {
  /** Check ids to run (all when empty). */
  only?: string[];
  /** How long to wait for any one answer, in ms (10 000). */
  timeoutMs?: number;
  concurrency?: number;
  /** Told of each result as its check finishes (in the order they finish; `index` is its place). */
  onResult?: (result: CheckResult, index: number) => void;
}

/** The checks that apply over `transport`, or those of them named in `only`. */
export function selectChecks(only: string[] = [], transport: CheckTransport = 'stdio'): Check[] {
  const applicable = allChecks.filter((c) => appliesTo(c, transport));
  if (only.length === 0) return applicable;
  const unknown = only.filter((id) => !applicable.some((c) => c.id === id));
  if (unknown.length > 0) {
    const elsewhere = unknown.filter((id) => allChecks.some((c) => c.id === id));
    const over = transport === 'http' ? 'over HTTP' : 'over stdio';
    throw new Error(
      elsewhere.length === unknown.length
        ? `${unknown.join(', ')} ${unknown.length === 1 ? 'does' : 'do'} not apply to a server ${over}`
        : `no check named ${unknown.join(', ')}; checks ${over}: ${applicable.map((c) => c.id).join(', ')}`,
    );
  }
  return applicable.filter((c) => only.includes(c.id));
}

export async function runChecks(target: DoctorTarget, options: DoctorOptions = {}): Promise<CheckResult[]> {
  const checks = selectChecks(options.only, transportOf(target));
  const results: CheckResult[] = new Array(checks.length);
  let next = 0;
  const worker = async () => {
    while (next < checks.length) {
      const index = next++;
      results[index] = await runOne(checks[index]!, target, options.timeoutMs ?? 10_000);
      options.onResult?.(results[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 2, checks.length) }, worker));
  return results;
}

async function runOne(check: Check, target: DoctorTarget, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  const peer: Peer = 'url' in target ? new HttpPeer(target, timeoutMs) : new StdioPeer(target, timeoutMs);
  let status: CheckStatus = 'pass';
  let details: string[] = [];
  try {
    const outcome = await runOn(check, peer);
    if (outcome) ({ status, details } = outcome);
  } catch (error) {
    status = 'fail';
    details = [
      error instanceof CheckFailure || error instanceof PeerTimeout || error instanceof PeerRefused
        ? error.message
        : `check crashed: ${String(error)}`,
    ];
    const stderr = peer.stderr.trim();
    if (stderr && peer.exit) details.push(`server stderr: ${stderr.split('\n').slice(-5).join(' | ')}`);
  } finally {
    await peer.dispose();
  }
  const result: CheckResult = {
    id: check.id,
    title: check.title,
    status,
    details,
    rule: check.rule,
    durationMs: Math.round(performance.now() - started),
  };
  if (status === 'fail' || status === 'warn') result.hint = check.hint;
  return result;
}

/** Runs a check on the peer of its transport (selectChecks picked only checks that apply). */
function runOn(check: Check, peer: Peer): Promise<CheckOutcome | undefined> {
  if (check.on === 'stdio') return check.run(peer as StdioPeer);
  if (check.on === 'http') return check.run(peer as HttpPeer);
  return check.run(peer);
}

/**
 * Whether the URL answers MCP at all: one initialize, before the checks, so that a server that cannot be
 * reached is one clear line rather than the same failure in every check. Undefined when it can be used.
 */
/**
 * Whether a stdio server starts at all: spawned, sent initialize, it must write something to stdout
 * before it exits or the timeout passes. A command that is missing, or a server that dies at once, is
 * one failure to say once (with its stderr), not the same failure in every check, each with a fix that
 * has nothing to do with it. Anything written, JSON-RPC or not, lets the checks run and judge it.
 */
export async function probeStdio(
  target: PeerCommand,
  timeoutMs = 10_000,
): Promise<{ message: string; hint: string } | undefined> {
  const peer = new StdioPeer(target, timeoutMs);
  try {
    peer.send(initializeMessage('probe'));
    await peer.waitFor(() => (peer.frames.length > 0 ? true : undefined), 'any output on stdout');
    return undefined;
  } catch {
    const stderr = peer.stderr.trim();
    const tail = stderr ? `; its stderr ends: ${stderr.split('\n').slice(-3).join(' | ')}` : '';
    if (/ENOENT/.test(stderr) && peer.exit?.code === null) {
      return {
        message: `cannot start "${target.command}": no such command`,
        hint: 'Check the command after "--" and that it is installed (and on PATH).',
      };
    }
    if (peer.exit) {
      return {
        message: `the server exited before it wrote anything to stdout (${describeExit(peer.exit)})${tail}`,
        hint: 'Run the command by hand to see why it stops; a stdio server must keep running and answer initialize.',
      };
    }
    return {
      message: `the server wrote nothing to stdout within ${timeoutMs} ms of initialize${tail}`,
      hint: 'A stdio server answers initialize on stdout; raise --timeout if it needs longer to start.',
    };
  } finally {
    await peer.dispose();
  }
}

export async function probeHttp(target: HttpTarget, timeoutMs = 10_000): Promise<CloseReason | undefined> {
  const peer = new HttpPeer(target, timeoutMs);
  try {
    const answer = await peer.exchange('POST', {
      headers: { 'Content-Type': 'application/json', Accept: ACCEPT_BOTH },
      body: JSON.stringify(initializeMessage('probe')),
      session: false,
    });
    peer.sessionId = answer.header('mcp-session-id');
    const response = { status: answer.status, headers: { get: (n: string) => answer.header(n) ?? null } };
    if (answer.status === 401 || answer.status === 403 || answer.status === 404)
      return httpRefusal(target.url, response, answer.text);
    const type = answer.contentType;
    if (answer.status < 300 && !type.includes('json') && !type.includes('text/event-stream'))
      return notMcp(target.url, type, answer.text);
    return undefined;
  } catch (error) {
    return unreachable(target.url, error);
  } finally {
    await peer.dispose();
  }
}
