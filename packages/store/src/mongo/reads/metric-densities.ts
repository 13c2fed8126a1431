import { LEVEL_SPECS, nextPartition, partitionOf, type Level } from '@tickertape/buckets';
import type { Db, Document } from 'mongodb';
import { listPartitionNames } from '../partitions.js';
import type { MetricDensity } from '../../port/bucket-reads.js';
import type { Dialect } from '../capabilities.js';

type DensityRow = { _id: { metric: string; series: string }; buckets: number; ticks: number };

/**
 * FerretDB 1.x answers a `$group` of several accumulators with zeros past the first: one
 * `$group` per sum, joined here by (metric, series).
 */
async function densitiesOneSumEach(db: Db, name: string, match: Document): Promise<DensityRow[]> {
  const groupBy = { metric: '$metric', series: '$series' };
  const [buckets, ticks] = await Promise.all([
    db
      .collection(name)
      .aggregate<{ _id: DensityRow['_id']; buckets: number }>([
        { $match: match },
        { $group: { _id: groupBy, buckets: { $sum: 1 } } },
      ])
      .toArray(),
    db
      .collection(name)
      .aggregate<{ _id: DensityRow['_id']; ticks: number }>([
        { $match: match },
        { $group: { _id: groupBy, ticks: { $sum: '$n' } } },
      ])
      .toArray(),
  ]);
  const key = (id: DensityRow['_id']) => JSON.stringify([id.metric, id.series]);
  const ticksOf = new Map(ticks.map((row) => [key(row._id), row.ticks]));
  return buckets.map((row) => ({ ...row, ticks: ticksOf.get(key(row._id)) ?? 0 }));
}

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
  dialect: Dialect = 'mongodb',
): Promise<MetricDensity[]> {
  const present = new Set(await listPartitionNames(db));
  const totals = new Map<string, { series: Set<string>; buckets: number; ticks: number }>();
  for (let p = partitionOf(level, fromMs); p.startMs < toMs; p = nextPartition(p)) {
    if (!present.has(p.name)) continue;
    const match = { start: { $gte: new Date(fromMs), $lt: new Date(toMs) }, n: { $gt: 0 } };
    const rows =
      dialect === 'ferretdb'
        ? await densitiesOneSumEach(db, p.name, match)
        : await db
            .collection(p.name)
            .aggregate<DensityRow>([
              { $match: match },
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
