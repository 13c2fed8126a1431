import type { Tick } from '../tick.js';
import { parse, type Options } from 'csv-parse/sync';
import { BadInputError, BadLineError } from './input-error.js';
import { parseTimestamp } from './timestamp.js';

type ColumnKind = 'metric' | 'ts' | 'tag' | 'field' | 'string';

interface Column {
  kind: ColumnKind;
  /** The tag, field or string name; empty for metric and ts. */
  name: string;
  header: string;
}

export interface CsvLayout {
  columns: Column[];
}

export const CSV_HEADER_SHAPE = 'metric,ts,tag:<key>...,field:<key>...,string:<key>...';

const LINE_OPTIONS: Options = { relax_column_count: true, trim: true };

/** Printable ASCII and tabs, no quote: a line csv-parse would cut at every comma. */
const PLAIN_LINE = /^[\t\x20\x21\x23-\x7e]*$/;

/** One CSV line's cells, trimmed (the header's or a tick's). */
export function csvCells(text: string): string[] {
  // Most lines need no CSV parser: split and trimmed they give exactly its cells (ASCII
  // whitespace is what both trim), and csv-parse's setup per call costs more than the rest of
  // reading a tick — a third of a backfill's time.
  if (PLAIN_LINE.test(text)) return text.split(',').map((cell) => cell.trim());
  const rows = parse(text, LINE_OPTIONS);
  if (rows.length !== 1) throw new Error(`${rows.length} records on one line`);
  return rows[0]!;
}

/**
 * Reads the header: `metric` and `ts` once each, then any number of `tag:<k>`, `field:<k>` and
 * `string:<k>` columns, in any order. A bad header makes the whole file unusable.
 */
export function parseCsvHeader(text: string): CsvLayout {
  let headers: string[];
  try {
    headers = csvCells(text);
  } catch (err) {
    throw new BadInputError(`the CSV header is not CSV: ${(err as Error).message}`);
  }
  const columns: Column[] = [];
  const seen = new Set<string>();
  for (const header of headers) {
    if (seen.has(header)) throw new BadInputError(`the CSV header repeats the column ${header}`);
    seen.add(header);
    if (header === 'metric' || header === 'ts') {
      columns.push({ kind: header, name: '', header });
      continue;
    }
    const match = /^(tag|field|string):(.+)$/.exec(header);
    if (!match) {
      throw new BadInputError(
        `the CSV header has an unknown column ${JSON.stringify(header)}; expected ${CSV_HEADER_SHAPE}`,
      );
    }
    columns.push({ kind: match[1] as ColumnKind, name: match[2]!, header });
  }
  for (const required of ['metric', 'ts']) {
    if (!seen.has(required)) {
      throw new BadInputError(
        `the CSV header has no ${required} column; expected ${CSV_HEADER_SHAPE}`,
      );
    }
  }
  if (!columns.some((column) => column.kind === 'field')) {
    throw new BadInputError(
      `the CSV header has no field:<key> column; expected ${CSV_HEADER_SHAPE}`,
    );
  }
  return { columns };
}

/**
 * Sets `name` as an own key even when it is `__proto__`, which plain assignment would take as the
 * prototype: the producer then refuses the line naming the column, instead of the value vanishing.
 */
function put<T>(map: Record<string, T>, name: string, value: T): void {
  if (name !== '__proto__') map[name] = value;
  else
    Object.defineProperty(map, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

/** One data line → a tick. An empty cell leaves that tag, field or string out. */
export function parseCsvTick(layout: CsvLayout, text: string): Tick {
  let cells: string[];
  try {
    cells = csvCells(text);
  } catch (err) {
    throw new BadLineError(`not CSV (${(err as Error).message})`);
  }
  if (cells.length !== layout.columns.length) {
    throw new BadLineError(`${cells.length} cells, the header has ${layout.columns.length}`);
  }
  const tick: Tick = { metric: '', tags: {}, ts: 0, fields: {}, strings: {} };
  layout.columns.forEach((column, index) => {
    const cell = cells[index]!;
    switch (column.kind) {
      case 'metric':
        tick.metric = cell;
        break;
      case 'ts':
        tick.ts = parseTimestamp(cell);
        break;
      case 'tag':
        if (cell !== '') put(tick.tags, column.name, cell);
        break;
      case 'string':
        if (cell !== '') put(tick.strings, column.name, cell);
        break;
      case 'field': {
        if (cell === '') break;
        const value = Number(cell);
        if (Number.isNaN(value)) {
          throw new BadLineError(`${column.header} ${JSON.stringify(cell)} is not a number`);
        }
        put(tick.fields, column.name, value);
        break;
      }
    }
  });
  return tick;
}
