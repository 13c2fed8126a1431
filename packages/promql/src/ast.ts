/**
 * The PromQL subset tickertape evaluates, as a tree of plain objects. Everything the Prometheus
 * grammar accepts beyond this is refused when the tree is built (parse.ts), with a message naming
 * what is not supported.
 */

export type MatchOp = '=' | '!=' | '=~' | '!~';

export interface Matcher {
  label: string;
  op: MatchOp;
  value: string;
}

/** `traffic_speed{dir="E"}`: the name is also a `__name__` matcher. */
export interface Selector {
  matchers: Matcher[];
  /** `offset 5m`: the selector reads as of this much earlier (ms; negative reads later). */
  offsetMs: number;
}

/**
 * The range functions we answer from bucket aggregates: exactly, or (quantile_over_time over
 * buckets of several ticks) from their quantile sketches (quantile.ts).
 */
export const RANGE_FUNCTIONS = [
  'count_over_time',
  'sum_over_time',
  'avg_over_time',
  'min_over_time',
  'max_over_time',
  'last_over_time',
  // Prometheus 3's (experimental there): the open of a candle, kept exactly as each bucket's first.
  'first_over_time',
  // Population spread, as Prometheus: from each bucket's n, Σx and Σx² (spread.ts).
  'stddev_over_time',
  'stdvar_over_time',
  'quantile_over_time',
] as const;
export type RangeFunction = (typeof RANGE_FUNCTIONS)[number];

export const AGGREGATIONS = ['sum', 'avg', 'min', 'max', 'count', 'topk', 'bottomk'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export const ARITHMETIC = ['+', '-', '*', '/', '%', '^'] as const;
export const COMPARISONS = ['==', '!=', '>', '<', '>=', '<='] as const;
export type BinaryOp = (typeof ARITHMETIC)[number] | (typeof COMPARISONS)[number];

export type Expr =
  | { kind: 'number'; value: number }
  /** An instant selector: the last tick at or before each evaluation time, within the lookback. */
  | { kind: 'selector'; selector: Selector }
  | {
      kind: 'range-function';
      fn: RangeFunction;
      selector: Selector;
      rangeMs: number;
      /** φ of quantile_over_time: a number per evaluation time. */
      param?: Expr;
    }
  | {
      kind: 'aggregate';
      op: Aggregation;
      /** k of topk/bottomk. */
      param?: Expr;
      grouping?: { without: boolean; labels: string[] };
      expr: Expr;
    }
  | {
      kind: 'binary';
      op: BinaryOp;
      bool: boolean;
      /** Between two vectors: match on these labels only (`on`) or on all but these (`ignoring`). */
      matching?: { on: boolean; labels: string[] };
      lhs: Expr;
      rhs: Expr;
    }
  | { kind: 'negate'; expr: Expr };

export function isComparison(op: BinaryOp): op is (typeof COMPARISONS)[number] {
  return (COMPARISONS as readonly string[]).includes(op);
}
