// Rows as a plain-text table for the model to read: one line per row, columns padded to their widest
// value, long values cut. The full values are in structuredContent; this is for reading at a glance.

import { type Cell, cellText } from './values.js';

const MAX_CELL = 60;

/** A cell as the table shows it: on one line, at most MAX_CELL characters. */
export function clip(text: string): string {
  // A line break inside a value would break the table's lines.
  const flat = text.replace(/\r\n|\r|\n/g, '⏎');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

export function renderTable(columns: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const header = columns.map(clip);
  const body = rows.map((row) => row.map((cell) => clip(cellText(cell))));
  const widths = header.map((name, i) => Math.max(name.length, ...body.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(Math.max(w, 1))).join('-+-'), ...body.map(line)].join(
    '\n',
  );
}
