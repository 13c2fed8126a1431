import { markdownTable } from '@tickertape/answers';

/* The report's Markdown cells and tables. */

export const int = (value: number) => Math.round(value).toLocaleString('en-US');
export const num = (value: number, digits: number) =>
  Number.isFinite(value) ? value.toFixed(digits) : '—';
export const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * A Markdown table from headings and the indexes of the right-aligned columns, as the report's
 * tables are written; the writing itself is @tickertape/answers' (one writer, capacity's too).
 */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right = new Set<number>(),
): string {
  return markdownTable(
    header.map((head, i) => ({ head, right: right.has(i) })),
    rows,
  ).join('\n');
}
