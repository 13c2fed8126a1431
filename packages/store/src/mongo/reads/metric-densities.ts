import { LEVEL_SPECS, nextPartition, partitionOf, type Level } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import { listPartitionNames } from '../partitions.js';
import type { MetricDensity } from '../../port/bucket-reads.js';

/**
 * Every metric's density in `level`'s buckets of the slots starting in [from, to): one
 * aggregation per partition collection of the span (what `tickertape levels suggest` reads).
 * Shells (n = 0) do not count; a series counts per slot it sent in, so a metric whose series
 * send a tick a minute reads 1 whatever their number.
 */
export async function metricDensities(
  db: Db,
  level: Level,
  fromMs: number,
  toMs: number,
): Promise<MetricDensity[]> {
  const present = new Set(await listPartitionNames(db));
  const totals = new Map<string, { series: Set<string>; buckets: number; ticks: number }>();
  for (let p = partitionOf(level, fromMs); p.startMs < toMs; p = nextPartition(p)) {
    if (!present.has(p.name)) continue;
    const rows = await db
      .collection(p.name)
      .aggregate<{ _id: { metric: string; series: string }; buckets: number; ticks: number }>([
        { $match: { start: { $gte: new Date(fromMs), $lt: new Date(toMs) }, n: { $gt: 0 } } },
        {
          $group: {
            _id: { metric: '$metric', series: '$series' },
            buckets: { $sum: 1 },
            ticks: { $sum: '$n' },
          },
        },
      ])
      .toArray();
    for (const row of rows) {
      const into = totals.get(row._id.metric) ?? { series: new Set(), buckets: 0, ticks: 0 };
      into.series.add(row._id.series);
      into.buckets += row.buckets;
      into.ticks += row.ticks;
      totals.set(row._id.metric, into);
    }
  }
  const minutesPerSlot = LEVEL_SPECS[level].slotMs / 60_000;
  return [...totals]
    .map(([metric, t]) => ({
      metric,
      series: t.series.size,
      buckets: t.buckets,
      ticks: t.ticks,
      perMinute: t.ticks / (t.buckets * minutesPerSlot),
    }))
    .sort((a, b) => (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0));
}
