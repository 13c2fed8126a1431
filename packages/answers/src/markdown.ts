/** A column of a generated Markdown table: its heading and whether figures align right. */
export interface MarkdownColumn {
  head: string;
  right?: boolean;
}

/**
 * The lines of a Markdown table of generated cells (the capacity model's and the benchmark's
 * documents). A `|` inside a cell (series keys, formulas) is escaped so it stays in its cell;
 * prettier pads the columns when the document is formatted.
 */
export function markdownTable(
  columns: readonly MarkdownColumn[],
  rows: readonly (readonly string[])[],
): string[] {
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [
    line(columns.map((c) => c.head)),
    `|${columns.map((c) => (c.right === true ? ' ---: ' : ' --- ')).join('|')}|`,
    ...rows.map(line),
  ];
}
