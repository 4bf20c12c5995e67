// The call workloads the suites share (the HTTP ones keep fewer in flight): N calls one at a time, and N calls
// with WINDOW in flight; and the loop that runs them on several peers, taking turns run by run, so that
// what else the machine does falls on every subject alike.

import type { Commander } from './peer.js';
import { balancedRuns, turnOrder } from './turn-order.js';

export const WINDOW = 64;

export interface Workload {
  key: 'serial' | 'pipelined';
  /** The row label: what was run, with its size. */
  case: string;
  calls: number;
  window: number;
  /** The command a driver peer runs for it. */
  command: { op: string; [key: string]: unknown };
}

export function serialWorkload(calls: number): Workload {
  return {
    key: 'serial',
    case: `serial, 1 in flight (${calls} calls)`,
    calls,
    window: 1,
    command: { op: 'serial', calls },
  };
}

export function pipelinedWorkload(calls: number): Workload {
  return {
    key: 'pipelined',
    case: `pipelined, ${WINDOW} in flight (${calls} calls)`,
    calls,
    window: WINDOW,
    command: { op: 'pipelined', calls, window: WINDOW },
  };
}

/** How many calls the HTTP suites keep in flight: what a busy agent keeps open on one server. */
export const HTTP_WINDOW = 32;

/** The two workloads of the HTTP suites (http-client, trace-http): 1 and HTTP_WINDOW calls in flight. */
export function httpWorkloads(serial: number, pipelined: number): Workload[] {
  return [
    {
      key: 'serial',
      case: `1 in flight (${serial} calls)`,
      calls: serial,
      window: 1,
      command: { op: 'serial', calls: serial },
    },
    {
      key: 'pipelined',
      case: `${HTTP_WINDOW} in flight (${pipelined} calls)`,
      calls: pipelined,
      window: HTTP_WINDOW,
      command: { op: 'pipelined', calls: pipelined, window: HTTP_WINDOW },
    },
  ];
}

export function callWorkloads(serialCalls: number, pipelinedCalls: number): Workload[] {
  return [serialWorkload(serialCalls), pipelinedWorkload(pipelinedCalls)];
}

/**
 * Warms every peer up with one run of each workload, then runs about `runs` rounds (the nearest whole
 * number of cycles of the balanced order, turn-order.ts) in which every peer runs every workload once.
 * Returns samples[workload][peer], one result per round. Within each workload's pass, over a cycle each
 * peer comes first, and right after each other, equally often.
 */
export async function takeTurns<R extends { ms: number }>(
  peers: readonly Commander[],
  subjects: readonly string[],
  workloads: readonly Workload[],
  runs: number,
  progress: (message: string) => void,
  options: { describe?: (result: R, workload: Workload) => string } = {},
): Promise<R[][][]> {
  for (const [i, peer] of peers.entries()) {
    progress(`  warming up ${subjects[i]}`);
    for (const w of workloads) await peer.command(w.command);
  }
  const describe =
    options.describe ?? ((result: R, w: Workload) => `${Math.round((w.calls / result.ms) * 1000)}/s`);
  const samples = workloads.map(() => peers.map((): R[] => []));
  const rounds = balancedRuns(peers.length, runs);
  for (let run = 0; run < rounds; run++) {
    for (const [wi, w] of workloads.entries()) {
      const line: string[] = [];
      for (const pi of turnOrder(peers.length, run)) {
        const result = await peers[pi]!.command<R>(w.command);
        samples[wi]![pi]!.push(result);
        line.push(`${subjects[pi]} ${describe(result, w)}`);
      }
      progress(`  run ${run + 1}/${rounds} ${w.key}: ${line.join(', ')}`);
    }
  }
  return samples;
}
