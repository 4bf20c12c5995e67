// A section as a plain-text table: one row per subject, the case written once per group of rows.

import { type Column, formatMs, formatRate, formatRatio, renderTable } from './format.js';
import type { Section } from './suite.js';
import { relativeSpread } from './timing.js';

export function renderSection(section: Section): string {
  const columns: Column[] = [
    { header: 'case' },
    { header: 'subject' },
    { header: 'runs', align: 'right' },
    { header: 'median', align: 'right' },
    { header: 'throughput', align: 'right' },
    { header: 'spread', align: 'right' },
    ...section.ratioColumns.map((c): Column => ({ header: c.header, align: 'right' })),
    ...(section.metricColumns ?? []).map((c): Column => ({ header: c.header, align: 'right' })),
    { header: 'target' },
    { header: 'peak RSS' },
    { header: 'note' },
  ];
  let previousCase: string | undefined;
  const rows = section.rows.map((row) => {
    const caseCell = row.case === previousCase ? '' : row.case;
    previousCase = row.case;
    const untimed = row.medianMs === undefined;
    const missing = row.failed ? 'failed' : row.metrics ? '' : 'skipped';
    return [
      caseCell,
      row.subject,
      String(row.samplesMs?.length ?? ''),
      untimed ? missing : formatMs(row.medianMs!),
      row.throughput === undefined || row.unit === undefined ? '' : formatRate(row.throughput, row.unit),
      row.samplesMs && row.samplesMs.length > 1
        ? `±${(relativeSpread(row.samplesMs) * 100).toFixed(0)}%`
        : '',
      ...section.ratioColumns.map((c) => {
        const ratio = row.ratios?.[c.key];
        return ratio === undefined ? '' : formatRatio(ratio);
      }),
      ...(section.metricColumns ?? []).map((c) => {
        const value = row.metrics?.[c.key];
        return value === undefined ? '' : `${value.toFixed(c.digits ?? 1)}${c.suffix ?? ''}`;
      }),
      row.target ? `${row.target.text} ${targetWord(row.target)}` : '',
      row.peakRssMiB
        ? Object.entries(row.peakRssMiB)
            .map(([process, mib]) => `${process} ${mib.toFixed(0)} MiB`)
            .join(', ')
        : '',
      row.note ?? '',
    ];
  });
  // Columns with nothing in them (no targets or no notes in this section) are left out.
  const keep = columns.map((_, i) => rows.some((row) => row[i] !== ''));
  const table = renderTable(
    columns.filter((_, i) => keep[i]),
    rows.map((row) => row.filter((_, i) => keep[i])),
  );
  const lines = [section.title, '', table];
  if (section.notes.length > 0) lines.push('', ...section.notes.map((note) => `  * ${note}`));
  return lines.join('\n');
}

/** A target's verdict in a word: met, UNDECIDED (the run cannot tell: lib/resolution.ts), or MISSED. */
export function targetWord(target: { met: boolean; undecided?: boolean }): string {
  return target.met ? 'met' : target.undecided ? 'UNDECIDED' : 'MISSED';
}
