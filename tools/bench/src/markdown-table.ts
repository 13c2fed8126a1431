/* The report's Markdown cells and tables. */

export const int = (value: number) => Math.round(value).toLocaleString('en-US');
export const num = (value: number, digits: number) =>
  Number.isFinite(value) ? value.toFixed(digits) : '—';
export const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** A Markdown table; `|` inside a cell (series keys have one) is escaped so it stays in its cell. */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right = new Set<number>(),
): string {
  const align = header.map((_, i) => (right.has(i) ? '---:' : '---'));
  const cells = (row: readonly string[]) => row.map((cell) => cell.replaceAll('|', '\\|'));
  return [cells(header), align, ...rows.map(cells)]
    .map((row) => `| ${row.join(' | ')} |`)
    .join('\n');
}
