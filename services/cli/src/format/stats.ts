import { statsColumns, type Cell, type StatsRead } from '@tickertape/answers';
import { QueryError, QueryErrorCode } from '@tickertape/query';
import { InvalidArgumentError } from 'commander';

/* The stats of points, candles and window rows as the terminal table shows them. */

/**
 * `--quantile 0.85 --quantile 0.99` or `--quantile 0.5,0.85,0.99`: the texts, collected. They are
 * judged with the query (`quantilesOf`), so a bad φ is a refused query (exit 2), as in the API.
 */
export function quantileArgument(text: string, previous: readonly string[] = []): string[] {
  if (text.trim() === '') throw new InvalidArgumentError('must be φ in [0, 1], e.g. 0.85');
  return [...previous, ...text.split(',')];
}

/** The φ of `--quantile`: each in [0, 1], or the query is refused. */
export function quantilesOf(texts: readonly string[] | undefined): number[] | undefined {
  if (texts === undefined) return undefined;
  return texts.map((text) => {
    const phi = text.trim() === '' ? Number.NaN : Number(text);
    if (phi >= 0 && phi <= 1) return phi;
    throw new QueryError(
      QueryErrorCode.InvalidQuantile,
      `--quantile ${JSON.stringify(text)} is not a quantile: give each φ in [0, 1], e.g. 0.5,0.85,0.99`,
    );
  });
}

/** The query's quantiles as a spreadable part (nothing when none were asked for). */
export const quantilesPart = (texts: readonly string[] | undefined) => {
  const quantiles = quantilesOf(texts);
  return quantiles === undefined ? {} : { quantiles };
};

/**
 * The stats columns of the terminal table: `stddev`, one per quantile, the weighted average
 * (`wavg_volume`) — the CSV's names — and a note when any of them is computed over fewer ticks
 * than the row holds (coverage: the CSV and JSON have it per row). `stddev` is left out when no
 * row has it (buckets written before Σx² was kept); quantiles and weighted averages are shown
 * whenever asked for or weighted, empty where nothing covers them.
 */
export function statsGrid(rows: readonly (StatsRead & { n: number | null })[]): {
  header: string[];
  cells: (row: StatsRead) => Cell[];
  notes: string[];
} {
  const all = statsColumns(rows, new Set());
  const spread = rows.some((row) => row.coverage.spread > 0);
  const shown = all.columns
    .map((column, i) => ({ name: column.name, i }))
    .filter(
      ({ name }) =>
        name !== 'variance' && !name.startsWith('coverage_') && (spread || name !== 'stddev'),
    );
  const partial = (pick: (row: StatsRead) => number | undefined, what: string): string[] => {
    const short = rows.filter((row) => {
      const covered = pick(row);
      return covered !== undefined && row.n !== null && covered < row.n;
    });
    return short.length === 0
      ? []
      : [
          `${what} over fewer ticks than n in ${short.length} of ${rows.length} rows ` +
            '(parts written without it; see coverage in --format csv or json)',
        ];
  };
  return {
    header: shown.map(({ name }) => name),
    cells: (row) => {
      const cells = all.cells(row);
      return shown.map(({ i }) => cells[i] ?? null);
    },
    notes: [
      ...(spread ? partial((row) => row.coverage.spread, 'stddev') : []),
      ...partial((row) => row.coverage.sketch, 'quantiles'),
      ...partial((row) => row.coverage.weighted, 'weighted average'),
    ],
  };
}
