// The results file: every section of every suite that ran, with what is needed to read the numbers later
// (machine, versions, options). bench/results/latest.json is rewritten by every run.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { BenchOptions } from './cli.js';
import type { Section } from './suite.js';
import { canCollectGarbage } from './timing.js';

export interface SuiteResult {
  name: string;
  description: string;
  durationMs: number;
  sections: Section[];
}

export interface ResultsFile {
  generatedAt: string;
  /** The command line's options that shape the numbers (--help does not). */
  options: Omit<BenchOptions, 'help'>;
  environment: {
    node: string;
    platform: string;
    arch: string;
    cpu: string;
    cores: number;
    memoryGiB: number;
    gcBetweenRuns: boolean;
    loadAverageAtStart?: number;
  };
  versions: Record<string, string>;
  durationMs: number;
  suites: SuiteResult[];
}

export function environment(): ResultsFile['environment'] {
  const cpuList = cpus();
  return {
    node: process.version,
    platform: `${platform()} ${release()}`,
    arch: process.arch,
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    gcBetweenRuns: canCollectGarbage,
  };
}

/** Versions of the packages measured, read from their package.json files. */
export function versions(packages: Record<string, URL>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, url] of Object.entries(packages)) {
    try {
      out[name] = (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
    } catch {
      out[name] = 'unknown';
    }
  }
  return out;
}

export function writeResults(path: string, results: ResultsFile): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
}

/** The version of an installed package, or "unknown". */
export function packageVersion(name: string): string {
  return (
    versions({ [name]: new URL(`../../node_modules/${name}/package.json`, import.meta.url) })[name] ??
    'unknown'
  );
}
