import { ENCODERS, type Answer, type Cell } from '@tickertape/answers';
import type { OutputFormat } from '../output/format-option.js';
import { formatTable } from '../table.js';

/*
 * `table` for people, or one of the answer formats the API also speaks, through the same
 * encoders (@tickertape/answers): the same CSV bytes as `GET /api/v1/…?format=csv`.
 */

export interface Grid {
  header: string[];
  rows: Cell[][];
}

/** A query's answer as the CLI prints it; built by pure functions from a reader result. */
export interface QueryAnswer {
  /** `--format csv` and `json`: the reader's result and its table, as the API encodes them. */
  answer: Answer;
  /** `--format table`: rows for people (gap rows included). */
  table: Grid;
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
 * redirect gives a clean file; the notes (documents examined…) go to stderr. json: the reader's
 * result on one line, whose `examined` field is the cost, and nothing on stderr.
 */
export function render(format: OutputFormat, answer: QueryAnswer): Output {
  const notes = answer.notes.map((line) => `${line}\n`).join('');
  switch (format) {
    case 'json':
      return { stdout: `${ENCODERS.json.encode(answer.answer)}\n`, stderr: '' };
    case 'csv':
      return { stdout: ENCODERS.csv.encode(answer.answer), stderr: notes };
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
