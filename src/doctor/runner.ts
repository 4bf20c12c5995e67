// Runs checks against a server command, each against a fresh process, two at a time.

import { type Check, CheckFailure, type CheckRule, type CheckStatus } from './check.js';
import { allChecks } from './checks/index.js';
import { Peer, type PeerCommand, PeerTimeout } from './peer.js';

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
}

export function selectChecks(only: string[] = []): Check[] {
  if (only.length === 0) return allChecks;
  const unknown = only.filter((id) => !allChecks.some((c) => c.id === id));
  if (unknown.length > 0) {
    throw new Error(`no check named ${unknown.join(', ')}; checks: ${allChecks.map((c) => c.id).join(', ')}`);
  }
  return allChecks.filter((c) => only.includes(c.id));
}

export async function runChecks(command: PeerCommand, options: DoctorOptions = {}): Promise<CheckResult[]> {
  const checks = selectChecks(options.only);
  const results: CheckResult[] = new Array(checks.length);
  let next = 0;
  const worker = async () => {
    while (next < checks.length) {
      const index = next++;
      results[index] = await runOne(checks[index]!, command, options.timeoutMs ?? 10_000);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 2, checks.length) }, worker));
  return results;
}

async function runOne(check: Check, command: PeerCommand, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  const peer = new Peer(command, timeoutMs);
  let status: CheckStatus = 'pass';
  let details: string[] = [];
  try {
    const outcome = await check.run(peer);
    if (outcome) ({ status, details } = outcome);
  } catch (error) {
    status = 'fail';
    details = [
      error instanceof CheckFailure || error instanceof PeerTimeout
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
