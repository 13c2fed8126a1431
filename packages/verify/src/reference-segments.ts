import type { TruthTick } from './truth.js';

export interface ExpectedPoint {
  t: number;
  v: Readonly<Record<string, number>>;
}

export interface SegmentRules {
  /** Metrics whose points are kept only when a value changed (SEGMENT_WRITE_ON_CHANGE). */
  writeOnChange: ReadonlySet<string>;
}

function sameValues(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.is(a[k], b[k]));
}

/**
 * The raw points the segment store should hold per series: the ticks in offset order (a series
 * lives in one Kafka partition), without the ones older than a point already kept — the store
 * keeps time order and leaves late points to the rollups — and, for write-on-change metrics,
 * without a point equal to the last one kept.
 */
export function expectedPoints(
  ticks: readonly TruthTick[],
  rules: SegmentRules,
): Map<string, ExpectedPoint[]> {
  const bySeries = new Map<string, ExpectedPoint[]>();
  const ordered = [...ticks].sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  for (const tick of ordered) {
    let points = bySeries.get(tick.series);
    if (!points) bySeries.set(tick.series, (points = []));
    const newest = points[points.length - 1];
    if (newest && tick.ts < newest.t) continue;
    if (newest && rules.writeOnChange.has(tick.metric) && sameValues(newest.v, tick.fields))
      continue;
    points.push({ t: tick.ts, v: { ...tick.fields } });
  }
  return bySeries;
}
