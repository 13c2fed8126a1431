import type { Cell, Column } from './table.js';
import type { StatsRead } from './reads.js';

/**
 * The stats of a table's rows as columns, in every table the same way (docs/analysts.md):
 * `variance`, `stddev`; one column per quantile asked, named as JSON keys it (`q0.85`); one
 * `wavg_<weight field>` per weight field among the rows (`wavg_volume`: VWAP), empty in rows
 * not weighted by it; then `coverage_spread`, `coverage_sketch` (with quantiles) and
 * `coverage_weighted` (with a weighted field): the ticks each stat is computed over, beside `n`.
 * A stat nothing covers is empty, never 0.
 */
export interface StatsColumns {
  columns: Column[];
  cells(row: StatsRead): Cell[];
}

const number = (name: string): Column => ({ name, kind: 'number' });

export function statsColumns(rows: readonly StatsRead[], taken: Set<string>): StatsColumns {
  const quantiles = [...new Set(rows.flatMap((row) => Object.keys(row.quantiles ?? {})))];
  const weights = [...new Set(rows.flatMap((row) => (row.weighted ? [row.weighted.by] : [])))];
  const sketched = rows.some((row) => row.coverage.sketch !== undefined);
  const weighted = weights.length > 0;
  const free = (name: string) => {
    let candidate = name;
    while (taken.has(candidate)) candidate = `stat_${candidate}`;
    taken.add(candidate);
    return candidate;
  };
  const names = [
    'variance',
    'stddev',
    ...quantiles,
    ...weights.map((by) => `wavg_${by}`),
    'coverage_spread',
    ...(sketched ? ['coverage_sketch'] : []),
    ...(weighted ? ['coverage_weighted'] : []),
  ];
  return {
    columns: names.map((name) => number(free(name))),
    cells: (row) => [
      row.variance,
      row.stddev,
      ...quantiles.map((key) => row.quantiles?.[key] ?? null),
      ...weights.map((by) => (row.weighted?.by === by ? row.weighted.avg : null)),
      row.coverage.spread,
      ...(sketched ? [row.coverage.sketch ?? null] : []),
      ...(weighted ? [row.coverage.weighted ?? null] : []),
    ],
  };
}
