import { formatTable } from '../table.js';
import { toCsv, type Cell } from './csv.js';

export const OUTPUT_FORMATS = ['table', 'csv', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface Grid {
  header: string[];
  rows: Cell[][];
}

/** A query's answer in every shape the CLI prints; built by pure functions from a reader result. */
export interface Answer {
  /** `--format json`: the reader's result object, as the library returns it. */
  json: unknown;
  /** `--format table`: rows for people (gap rows included). */
  table: Grid;
  /** `--format csv`: one record per data row, full precision, no gap rows. */
  csv: Grid;
  /** What was read and its cost, ending with the documents examined. */
  notes: string[];
}

export interface Output {
  stdout: string;
  stderr: string;
}

/** Table cells are read, not computed on: 4 decimals, yes/no. CSV and JSON keep full values. */
function tableCell(cell: Cell): string | number | null {
  if (typeof cell === 'boolean') return cell ? 'yes' : 'no';
  if (typeof cell === 'number') return Math.round(cell * 10_000) / 10_000;
  return cell;
}

/**
 * table: the table, then the notes. csv: stdout holds only the header and the records, so a
 * redirect gives a clean file; the notes (documents examined…) go to stderr. json: the result,
 * whose `examined` field is the cost, and nothing on stderr.
 */
export function render(format: OutputFormat, answer: Answer): Output {
  const notes = answer.notes.map((line) => `${line}\n`).join('');
  switch (format) {
    case 'json':
      return { stdout: `${JSON.stringify(answer.json, null, 2)}\n`, stderr: '' };
    case 'csv':
      return { stdout: toCsv(answer.csv.header, answer.csv.rows), stderr: notes };
    case 'table':
      return {
        stdout:
          formatTable(
            answer.table.header,
            answer.table.rows.map((row) => row.map(tableCell)),
          ) + notes,
        stderr: '',
      };
  }
}
