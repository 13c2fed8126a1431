import { LEVEL_SPECS } from '@tickertape/buckets';
import { bucketPartition } from '@tickertape/store';
import type { Db } from 'mongodb';
import { checkRange, type ReaderContext } from './limits.js';
import { partitionsInRange } from './partitions-in-range.js';

/** A metric with data in a range, and the field and tag names a sample of its buckets holds. */
export interface MetricInfo {
  metric: string;
  fields: string[];
  tags: string[];
}

/** Buckets per metric whose names are listed: enough for a metric's usual names, bounded in cost. */
const SAMPLE_BUCKETS = 50;

/**
 * The metrics with data in [from, to) at the coarsest running level (distinct over the
 * `metric_1_start_1_series_1` index), each with the field and tag names of up to 50 of its
 * buckets. The names are a sample: a field only a few series have may be missing here, though
 * reads by that name still find it (see the series discovery).
 */
export async function metricCatalog(
  db: Db,
  ctx: ReaderContext,
  range: { fromMs: number; toMs: number },
): Promise<MetricInfo[]> {
  checkRange(range.fromMs, range.toMs);
  const level = ctx.levels[ctx.levels.length - 1]!;
  const start = {
    $gte: new Date(range.fromMs - LEVEL_SPECS[level].slotMs + 1),
    $lt: new Date(range.toMs),
  };
  const partitions = partitionsInRange(level, range.fromMs, range.toMs).map((p) =>
    bucketPartition(db, p.name),
  );
  const found = new Map<string, { fields: Set<string>; tags: Set<string> }>();
  for (const partition of partitions) {
    const metrics = await partition.distinct('metric', { start, n: { $gt: 0 } });
    for (const metric of metrics) {
      if (typeof metric !== 'string') continue;
      const names = await partition.aggregate<{ fields: string[]; tags: string[] }>([
        { $match: { metric, start, n: { $gt: 0 } } },
        { $limit: SAMPLE_BUCKETS },
        {
          $project: {
            _id: 0,
            fields: { $map: { input: { $objectToArray: '$f' }, in: '$$this.k' } },
            tags: { $map: { input: { $objectToArray: '$tags' }, in: '$$this.k' } },
          },
        },
      ]);
      const entry = found.get(metric) ?? { fields: new Set<string>(), tags: new Set<string>() };
      for (const row of names) {
        for (const field of row.fields ?? []) entry.fields.add(field);
        for (const tag of row.tags ?? []) entry.tags.add(tag);
      }
      found.set(metric, entry);
    }
  }
  return [...found.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([metric, { fields, tags }]) => ({
      metric,
      fields: [...fields].sort(),
      tags: [...tags].sort(),
    }));
}
