/** A value of a table or CSV cell; `null` is missing data and stays an empty cell, never 0. */
export type Cell = string | number | boolean | null;

/**
 * One RFC 4180 field: quoted when it holds a comma, a quote, a line break or edge spaces (which
 * spreadsheets would trim), with quotes doubled. Numbers keep full precision.
 */
export function csvField(cell: Cell): string {
  if (cell === null) return '';
  const text = String(cell);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A header row and the rows, CRLF-free: one `\n` per record, as Unix tools expect. */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\n`).join('');
}
