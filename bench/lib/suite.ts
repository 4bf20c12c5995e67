// What a suite is and what it hands back. A suite measures one thing side by side and returns sections:
// each section is printed as one table and saved, as is, in bench/results/latest.json.
//
// Adding a suite: write bench/suites/NAME.ts exporting a `Suite`, and add it to the list in bench/index.ts.

export interface SuiteContext {
  /** A fast smoke run (`--quick`): smaller workloads, fewer runs. Numbers are then indicative only. */
  readonly quick: boolean;
  /** `--forks N`: the forks a suite that runs them should run instead of its default. */
  readonly forks?: number;
  /** `--calls N`: the calls in each round of the rows a suite judges against targets, instead of its default. */
  readonly calls?: number;
  /** Progress for the person watching, on stderr; never part of the results. */
  progress(message: string): void;
}

export interface Suite {
  /** What `--only` matches, and the key of the suite in the results file. */
  readonly name: string;
  /** One line on what the suite measures. */
  readonly description: string;
  run(context: SuiteContext): Promise<Section[]>;
}

/** One measured subject in one case: a row of a table. */
export interface Row {
  /** The workload, e.g. "10 MiB message" or "pipelined, 64 in flight". */
  case: string;
  /** Who was measured, e.g. "mcpwire", "sdk 1.32.2", "hand-written". */
  subject: string;
  /** Median time of one run, in milliseconds. Absent when the subject was skipped or failed. */
  medianMs?: number;
  /** Time of every timed run, in milliseconds. */
  samplesMs?: number[];
  /** Median throughput, in `unit`. */
  throughput?: number;
  /** Unit of `throughput`, e.g. "MiB/s" or "calls/s". */
  unit?: string;
  /** Ratios against the baselines the section names in `ratioColumns`, keyed like them. */
  ratios?: Record<string, number>;
  /**
   * A goal this row is judged against, and whether it was met; `undecided` when the run cannot tell (the
   * goal lies inside the ratio's interval, lib/resolution.ts): then `met` is false, but it is not a miss.
   */
  target?: { text: string; met: boolean; undecided?: boolean };
  /**
   * Further medians, keyed like the section's `metricColumns` (CPU time per call, say). A row with metrics
   * and no time (a memory table) is not a skip.
   */
  metrics?: Record<string, number>;
  /** Peak resident set size in MiB, per process (e.g. client, server). */
  peakRssMiB?: Record<string, number>;
  /** The subject was run and failed (`note` says how): the row is a result, not a skip. */
  failed?: boolean;
  /** Why the row was skipped or failed, or anything else worth a word. */
  note?: string;
}

export interface RatioColumn {
  key: string;
  /** Column header, e.g. "time ÷ lower bound". */
  header: string;
}

export interface MetricColumn {
  key: string;
  header: string;
  /** Printed after the number, e.g. " µs". */
  suffix?: string;
  /** Digits after the decimal point (1). */
  digits?: number;
}

export interface Section {
  title: string;
  ratioColumns: RatioColumn[];
  /** Columns for `Row.metrics`, printed after the ratios. */
  metricColumns?: MetricColumn[];
  rows: Row[];
  /** Printed under the table: how to read it, what was skipped and why. */
  notes: string[];
}
