import type { RangeFunction } from './ast.js';

/** Series named per warning: a dashboard over hundreds of sensors gets a count for the rest. */
const NAMED = 5;

/** Why a function's windows can go unanswered, in words that point at the fix. */
const WHY: Partial<Record<RangeFunction, string>> = {
  quantile_over_time:
    'buckets of several ticks without a quantile sketch of all of them (sketches are kept for the metrics `tickertape levels` sketches, from when it was turned on)',
  stddev_over_time: 'buckets of several ticks written before buckets kept Σx²',
  stdvar_over_time: 'buckets of several ticks written before buckets kept Σx²',
};

export interface LeftOut {
  fn: RangeFunction;
  /** The series' labels as selected (with its name). */
  labels: Record<string, string>;
  /** Windows left out, of `steps`. */
  windows: number;
  steps: number;
}

/**
 * The answer's `warnings` (Prometheus' JSON has the array; Grafana shows it on the panel): one
 * per function, naming the series whose samples were left out rather than estimated.
 */
export function leftOutWarnings(leftOut: readonly LeftOut[]): string[] {
  const byFn = new Map<RangeFunction, LeftOut[]>();
  for (const entry of leftOut) byFn.set(entry.fn, [...(byFn.get(entry.fn) ?? []), entry]);
  return [...byFn.entries()].map(([fn, entries]) => {
    const named = entries
      .slice(0, NAMED)
      .map((e) => `${seriesText(e.labels)} (${e.windows} of ${e.steps} steps)`);
    const more = entries.length > NAMED ? ` and ${entries.length - NAMED} more series` : '';
    return `${fn}: samples left out, not estimated, where the window holds ${WHY[fn] ?? 'parts that cannot answer it'}: ${named.join(', ')}${more}`;
  });
}

/** `name{a="x", b="y"}`, as Prometheus prints a series. */
function seriesText(labels: Readonly<Record<string, string>>): string {
  const { __name__: name = '', ...rest } = labels;
  const pairs = Object.keys(rest)
    .sort()
    .map((label) => `${label}=${JSON.stringify(rest[label])}`);
  return pairs.length === 0 ? name : `${name}{${pairs.join(', ')}}`;
}
