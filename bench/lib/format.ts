// Number formats and plain-text tables.

export const KiB = 1024;
export const MiB = 1024 * KiB;

export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

export function formatRate(value: number, unit: string): string {
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${unit}`;
}

export function formatRatio(ratio: number): string {
  return `${ratio >= 100 ? ratio.toFixed(0) : ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}x`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${+(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= KiB) return `${+(bytes / KiB).toFixed(1)} KiB`;
  return `${bytes} B`;
}

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

/** Aligns cells into columns separated by two spaces, with a rule under the header. */
export function renderTable(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, i) => {
        const cell = cells[i] ?? '';
        const width = widths[i]!;
        return column.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.header)),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
  ].join('\n');
}
