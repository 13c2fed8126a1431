import { parseSeriesKey } from '@tickertape/tick';

/**
 * What CSV and Arrow answers are made of: a tidy table, one row per point, candle, raw point,
 * series or level, with typed columns. `time` columns hold epoch milliseconds (Arrow: a UTC
 * timestamp; CSV: the integer), `text` columns strings, `number` columns doubles, `bool` columns
 * booleans; `null` is missing data (an empty CSV cell, an Arrow null), never 0.
 */
export type ColumnKind = 'text' | 'number' | 'time' | 'bool';
export type Cell = string | number | boolean | null;

export interface Column {
  name: string;
  kind: ColumnKind;
}

export interface Table {
  columns: readonly Column[];
  rows: readonly (readonly Cell[])[];
}

export const isoTime = (ms: number): string => new Date(ms).toISOString();

/**
 * Every instant is two columns, in every table: `<name>` in ISO-8601 (UTC, milliseconds) for
 * people and spreadsheets, and `<name>_ms` in epoch milliseconds (Arrow: a UTC timestamp) for
 * code. Missing, both are empty.
 */
export const instantColumns = (name: string): Column[] => [
  { name, kind: 'text' },
  { name: `${name}_ms`, kind: 'time' },
];
export const instantCells = (ms: number | null): Cell[] =>
  ms === null ? [null, null] : [isoTime(ms), ms];

/**
 * A name for a column of the series' own (a tag, a raw field) that no other column has: the
 * name itself, or with `prefix` until it is free (a tag `n` beside the column `n` is `tag_n`).
 */
function freeName(name: string, taken: Set<string>, prefix: string): string {
  let candidate = name;
  while (taken.has(candidate)) candidate = `${prefix}${candidate}`;
  taken.add(candidate);
  return candidate;
}

/** Columns named by data (tags, raw fields), sorted, each named so it clashes with none. */
export interface NamedColumns {
  columns: Column[];
  /** The cells of one row, in column order: `null` for a name the row lacks. */
  cells(values: Readonly<Record<string, string | number>>): Cell[];
}

export function namedColumns(
  names: Iterable<string>,
  kind: ColumnKind,
  taken: Set<string>,
  prefix: string,
): NamedColumns {
  const sorted = [...new Set(names)].sort();
  const columns = sorted.map((name) => ({ name: freeName(name, taken, prefix), kind }));
  return {
    columns,
    cells: (values) => sorted.map((name) => (Object.hasOwn(values, name) ? values[name]! : null)),
  };
}

/**
 * The tags of the series read, as columns (the union of their tag names, `null` where a series
 * has no such tag), parsed from the keys the reader returns. `taken` holds the table's other
 * column names, and gets these.
 */
export function tagColumns(
  seriesKeys: readonly string[],
  taken: Set<string>,
): NamedColumns & { tagsOf(series: string): Record<string, string> } {
  const tags = new Map(seriesKeys.map((key) => [key, parseSeriesKey(key).tags]));
  const named = namedColumns(
    [...tags.values()].flatMap((t) => Object.keys(t)),
    'text',
    taken,
    'tag_',
  );
  return { ...named, tagsOf: (series) => tags.get(series) ?? {} };
}

/** The names of columns, to keep data-named columns clear of them. */
export const namesOf = (...groups: (readonly Column[])[]): Set<string> =>
  new Set(groups.flat().map((column) => column.name));
