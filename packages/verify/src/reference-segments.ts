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
 * The raw points the segment store should hold, per series and per Kafka partition (a chain of
 * segments each: a series normally has one; producers with different partitioners can give it
 * more). Each chain holds its partition's ticks in offset order, without the ones older than a
 * point it already kept — the store keeps time order and leaves late points to the rollups —
 * and, for write-on-change metrics, without a point equal to the last one it kept. What is late
 * is decided within the partition, so it does not depend on how partitions were interleaved.
 */
export function expectedPoints(
  ticks: readonly TruthTick[],
  rules: SegmentRules,
): Map<string, Map<number, ExpectedPoint[]>> {
  const bySeries = new Map<string, Map<number, ExpectedPoint[]>>();
  const ordered = [...ticks].sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  for (const tick of ordered) {
    let chains = bySeries.get(tick.series);
    if (!chains) bySeries.set(tick.series, (chains = new Map<number, ExpectedPoint[]>()));
    let points = chains.get(tick.partition);
    if (!points) chains.set(tick.partition, (points = []));
    const newest = points[points.length - 1];
    if (newest && tick.ts < newest.t) continue;
    if (newest && rules.writeOnChange.has(tick.metric) && sameValues(newest.v, tick.fields))
      continue;
    points.push({ t: tick.ts, v: { ...tick.fields } });
  }
  return bySeries;
}
