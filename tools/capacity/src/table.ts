/** A column of a generated Markdown table: its heading and whether figures align right. */
export interface Column {
  head: string;
  right?: boolean;
}

/**
 * A Markdown table of generated cells. A `|` inside a cell (series keys, formulas) is escaped so
 * it stays in its cell; prettier pads the columns when the document is formatted.
 */
export function markdownTable(columns: readonly Column[], rows: readonly (readonly string[])[]) {
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [
    line(columns.map((c) => c.head)),
    `|${columns.map((c) => (c.right === true ? ' ---: ' : ' --- ')).join('|')}|`,
    ...rows.map(line),
  ];
}

/** Figures as the generated docs print them: grouped integers, fixed decimals, — for none. */
export const fmt = {
  int: (value: number) =>
    Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—',
  fixed: (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '—'),
};
