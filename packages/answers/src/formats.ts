import { tableToArrowStream } from './arrow.js';
import { tableToCsv } from './csv.js';
import type { Table } from './table.js';

/**
 * The formats of a read's answer: JSON (the reader's result, or the API's body), CSV for
 * spreadsheets and `pd.read_csv`, an Arrow IPC stream for pyarrow, pandas and DuckDB
 * (docs/analysts.md). The API answers in each (`format=` or Accept) and so does the CLI
 * (`--format`), through the same encoders.
 */
export const FORMATS = ['json', 'csv', 'arrow'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * One read's answer, as every format needs it. Each part is made only when a format asks for it:
 * a JSON request never builds the table.
 */
export interface Answer {
  /** The value JSON writes: the reader's result, or the API's body (its schema's fields only). */
  json(): unknown;
  /** The rows CSV and Arrow write (read-tables.ts). */
  table(): Table;
}

export type Body = string | Buffer;

export interface Encoder {
  /** What the format is asked for by (`Accept`). */
  mediaType: string;
  /** What it is answered with (`Content-Type`). */
  contentType: string;
  encode(answer: Answer): Body;
}

/** The one encoder of each format (JSON and CSV give text, Arrow bytes). */
export const ENCODERS = {
  json: {
    mediaType: 'application/json',
    contentType: 'application/json; charset=utf-8',
    encode: (answer) => JSON.stringify(answer.json()),
  },
  csv: {
    mediaType: 'text/csv',
    // RFC 4180's optional `header` parameter: the first record names the columns.
    contentType: 'text/csv; charset=utf-8; header=present',
    encode: (answer) => tableToCsv(answer.table()),
  },
  arrow: {
    mediaType: 'application/vnd.apache.arrow.stream',
    contentType: 'application/vnd.apache.arrow.stream',
    encode: (answer) => tableToArrowStream(answer.table()),
  },
} as const satisfies Readonly<Record<Format, Encoder>>;

/** An answer in `format`: JSON text, CSV text or Arrow bytes. */
export const encodeAnswer = (format: Format, answer: Answer): Body =>
  ENCODERS[format].encode(answer);
