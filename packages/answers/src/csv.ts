import { stringify } from 'csv-stringify/sync';
import type { Table } from './table.js';

/**
 * The first characters csv-stringify's `escape_formulas` prefixes (OWASP's CSV injection list,
 * with their full-width forms, which Apple Numbers folds to ASCII): a cell starting with one is
 * also quoted, so the quote that disarms it is not lost to a reader that trims.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A table as RFC 4180 CSV, the one dialect of the API's `format=csv` and the CLI's `--format csv`: a header row, CRLF after every record, a field quoted when it holds
 * a comma, a quote or a line break (quotes doubled) — and when it starts or ends with a space,
 * which spreadsheets would trim. Numbers as JavaScript prints them (full precision, `1e+21`),
 * times in epoch milliseconds, booleans `true`/`false`, missing data as an empty field.
 *
 * Tag values, series keys, names and notes come from whoever writes ticks: a text cell a
 * spreadsheet would run as a formula (`=HYPERLINK(…)`, `@SUM(…)`, `-2+3`) is written as text,
 * `"'=HYPERLINK(…)"` (OWASP, CSV injection). Numbers are never touched: `-1.5` stays a number.
 */
export function tableToCsv(table: Table): string {
  return stringify(table.rows as unknown[][], {
    header: true,
    columns: table.columns.map((column) => column.name),
    record_delimiter: 'windows',
    // csv-stringify quotes a field holding its record delimiter, CRLF, but not a lone LF or CR,
    // which every CSV reader would take for the end of the record.
    quoted_match: [/[\r\n]/, /^\s/, /\s$/],
    escape_formulas: true,
    cast: {
      boolean: (value) => String(value),
      string: (value) => (FORMULA_START.test(value) ? { value, quoted: true } : value),
    },
  });
}
