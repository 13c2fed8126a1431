import { LEVEL_SPECS } from '@tickertape/buckets';
import type { Collection, Db, Document } from 'mongodb';
import type { BucketScope, MetricRow, SeriesRow } from '../../port/bucket-reads.js';
import type { Dialect } from '../capabilities.js';
import { boundOptions, type ReadBounds } from '../read-bounds.js';
import { partitionsInRange } from './partitions-in-range.js';

/**
 * Buckets with ticks whose slot overlaps the scope's range, by metric and tags: an index range
 * on `metric_1_start_1_series_1` when a metric is named.
 */
function scopeFilter(scope: BucketScope): Document {
  const filter: Document = {
    start: {
      $gte: new Date(scope.fromMs - LEVEL_SPECS[scope.level].slotMs + 1),
      $lt: new Date(scope.toMs),
    },
    n: { $gt: 0 },
  };
  if (scope.metric !== undefined) filter.metric = scope.metric;
  for (const [key, value] of Object.entries(scope.tags ?? {})) filter[`tags.${key}`] = value;
  return filter;
}

const partitionsOf = (db: Db, scope: BucketScope) =>
  partitionsInRange(scope.level, scope.fromMs, scope.toMs).map((p) => db.collection(p.name));

/** One count per partition (index-only on metric/start): what a discovery would examine. */
export async function countBuckets(
  db: Db,
  scope: BucketScope,
  bounds: ReadBounds = {},
): Promise<number> {
  const filter = scopeFilter(scope);
  const counts = await Promise.all(
    partitionsOf(db, scope).map((partition) =>
      partition.countDocuments(filter, boundOptions(bounds)),
    ),
  );
  return counts.reduce((total, count) => total + count, 0);
}

interface SeriesGroup {
  _id: string;
  metric: string;
  tags: Record<string, string>;
  lastStart: Date;
  fields: string[];
}

/**
 * FerretDB has no `$map` (nor `$objectToArray`): the buckets' `f` and `tags` maps travel whole
 * and their keys are taken here — values included, so dearer than on MongoDB, but the same rows.
 */
async function keysHere(
  partition: Collection,
  filter: Document,
  sample: number,
  bounds: ReadBounds,
): Promise<{ fields: string[]; tags: string[] }[]> {
  const docs = await partition
    .find(filter, { projection: { _id: 0, f: 1, tags: 1 }, ...boundOptions(bounds) })
    .limit(sample)
    .toArray();
  return docs.map((doc) => ({
    fields: Object.keys((doc.f as Document | undefined) ?? {}),
    tags: Object.keys((doc.tags as Document | undefined) ?? {}),
  }));
}

/** findSeries' grouping for FerretDB (see keysHere): by series, first `limit` keys in order. */
async function seriesWithKeysHere(
  partition: Collection,
  filter: Document,
  limit: number,
  bounds: ReadBounds,
): Promise<SeriesGroup[]> {
  const groups = new Map<string, SeriesGroup>();
  const cursor = partition.find(filter, {
    projection: { _id: 0, series: 1, metric: 1, tags: 1, start: 1, f: 1 },
    ...boundOptions(bounds),
  });
  for await (const doc of cursor) {
    const fields = Object.keys((doc.f as Document | undefined) ?? {});
    if (fields.length === 0) continue; // as $unwind drops a bucket without fields
    const series = doc.series as string;
    const group = groups.get(series);
    if (group === undefined) {
      groups.set(series, {
        _id: series,
        metric: doc.metric as string,
        tags: doc.tags as Record<string, string>,
        lastStart: doc.start as Date,
        fields,
      });
      continue;
    }
    if ((doc.start as Date).getTime() > group.lastStart.getTime())
      group.lastStart = doc.start as Date;
    group.fields = [...new Set([...group.fields, ...fields])];
  }
  return [...groups.values()]
    .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
    .slice(0, limit);
}

const fieldNames = { $map: { input: { $objectToArray: '$f' }, in: '$$this.k' } };

/**
 * Each partition groups its buckets by series on the server and returns its first `limit` keys
 * in order with their field names (never the values): the first `limit` over all partitions are
 * among them.
 */
export async function findSeries(
  db: Db,
  scope: BucketScope,
  limit: number,
  dialect: Dialect = 'mongodb',
  bounds: ReadBounds = {},
): Promise<SeriesRow[]> {
  const filter = scopeFilter(scope);
  const found = new Map<string, SeriesRow & { fieldSet: Set<string> }>();
  for (const partition of partitionsOf(db, scope)) {
    const rows =
      dialect === 'ferretdb'
        ? await seriesWithKeysHere(partition, filter, limit, bounds)
        : await partition
            .aggregate<SeriesGroup>(
              [
                { $match: filter },
                { $project: { series: 1, metric: 1, tags: 1, start: 1, fields: fieldNames } },
                { $unwind: '$fields' },
                {
                  $group: {
                    _id: '$series',
                    metric: { $first: '$metric' },
                    tags: { $first: '$tags' },
                    lastStart: { $max: '$start' },
                    fields: { $addToSet: '$fields' },
                  },
                },
                { $sort: { _id: 1 } },
                { $limit: limit },
              ],
              boundOptions(bounds),
            )
            .toArray();
    for (const row of rows) {
      const seen = found.get(row._id) ?? {
        series: row._id,
        metric: row.metric,
        tags: row.tags,
        fields: [],
        lastSlotMs: 0,
        fieldSet: new Set<string>(),
      };
      for (const name of row.fields) seen.fieldSet.add(name);
      seen.lastSlotMs = Math.max(seen.lastSlotMs, row.lastStart.getTime());
      found.set(row._id, seen);
    }
  }
  return [...found.values()]
    .sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : 0))
    .slice(0, limit)
    .map(({ fieldSet, ...row }) => ({ ...row, fields: [...fieldSet].sort() }));
}

/**
 * The metrics in the scope (distinct over `metric_1_start_1_series_1`), each with the field and
 * tag names of up to `sample` of its buckets per partition.
 */
export async function listMetrics(
  db: Db,
  scope: BucketScope,
  sample: number,
  dialect: Dialect = 'mongodb',
  bounds: ReadBounds = {},
): Promise<MetricRow[]> {
  const filter = scopeFilter(scope);
  const { metric: _named, ...sansMetric } = filter;
  const found = new Map<string, { fields: Set<string>; tags: Set<string> }>();
  for (const partition of partitionsOf(db, scope)) {
    // FerretDB 1.24 refuses `maxTimeMS` on distinct (FailedToParse): there the signal only.
    const metrics = await partition.distinct(
      'metric',
      filter,
      boundOptions(dialect === 'ferretdb' ? { ...bounds, maxTimeMS: undefined } : bounds),
    );
    for (const metric of metrics) {
      if (typeof metric !== 'string') continue;
      const names =
        dialect === 'ferretdb'
          ? await keysHere(partition, { metric, ...sansMetric }, sample, bounds)
          : await partition
              .aggregate<{ fields?: string[]; tags?: string[] }>(
                [
                  { $match: { metric, ...sansMetric } },
                  { $limit: sample },
                  {
                    $project: {
                      _id: 0,
                      fields: fieldNames,
                      tags: { $map: { input: { $objectToArray: '$tags' }, in: '$$this.k' } },
                    },
                  },
                ],
                boundOptions(bounds),
              )
              .toArray();
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
