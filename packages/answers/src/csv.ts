import { stringify } from 'csv-stringify/sync';
import type { Table } from './table.js';

/**
 * A table as RFC 4180 CSV, the one dialect of the API's `format=csv` and the CLI's `--format csv`: a header row, CRLF after every record, a field quoted when it holds
 * a comma, a quote or a line break (quotes doubled) — and when it starts or ends with a space,
 * which spreadsheets would trim. Numbers as JavaScript prints them (full precision, `1e+21`),
 * times in epoch milliseconds, booleans `true`/`false`, missing data as an empty field.
 */
export function tableToCsv(table: Table): string {
  return stringify(table.rows as unknown[][], {
    header: true,
    columns: table.columns.map((column) => column.name),
    record_delimiter: 'windows',
    // csv-stringify quotes a field holding its record delimiter, CRLF, but not a lone LF or CR,
    // which every CSV reader would take for the end of the record.
    quoted_match: [/[\r\n]/, /^\s/, /\s$/],
    cast: { boolean: (value) => String(value) },
  });
}
