import {
  LEVEL_SPECS,
  bucketId,
  nextPartition,
  parsePartitionName,
  partitionOf,
  type Level,
  type PartitionRange,
} from '@tickertape/buckets';
import type {
  BucketPart,
  BucketReads,
  BucketScope,
  FieldSlot,
  MetricDensity,
  MetricPartQuery,
  MetricRow,
  NewestBucket,
  PartQuery,
  SeriesRow,
  SlotRangeQuery,
} from '../port/bucket-reads.js';
import type { BucketRecord } from '../port/partitions.js';
import { fieldSlotOf, type FieldPart } from '../layout/field-slot.js';
import { isObservedAggregate, type StoredBucket } from '../layout/stored-bucket.js';
import { compareBson } from './bson-order.js';
import { copy, startOf, ticksOf } from './collections.js';
import type { MemoryState } from './state.js';

/** The partitions of `level` that `[fromMs, toMs)` touches, in time order. */
function partitionsInRange(level: Level, fromMs: number, toMs: number): PartitionRange[] {
  const ranges: PartitionRange[] = [];
  for (let range = partitionOf(level, fromMs); range.startMs < toMs; range = nextPartition(range))
    ranges.push(range);
  return ranges;
}

const byKey = (a: string, b: string) => compareBson(a, b);

function hasTags(
  record: BucketRecord,
  tags: Readonly<Record<string, string>> | undefined,
): boolean {
  const own = (record.tags ?? {}) as Record<string, unknown>;
  return Object.entries(tags ?? {}).every(([key, value]) => own[key] === value);
}

function fieldNames(record: BucketRecord): string[] {
  return Object.keys(record.f ?? {});
}

/** What a part of a field decodes (as the Mongo reads decode it): whole, its totals, or its sub-slots. */
function partOf(part: BucketPart, whole: boolean): FieldPart {
  if (whole) return { totals: true, sub: 'all' };
  return part.sub === undefined ? { totals: true } : { totals: false, sub: part.sub };
}

/**
 * A record through the layout's one decoder. A whole minute bucket serves only its totals to a
 * window (the Mongo reads do not even fetch its seconds).
 */
function decode(level: Level, record: BucketRecord, field: string, part: FieldPart): FieldSlot {
  const minuteWhole = part.sub === 'all' && part.totals && LEVEL_SPECS[level].subKey === 'sec';
  return fieldSlotOf(
    { series: String(record.series), level, start: startOf(record) },
    record as unknown as StoredBucket,
    field,
    minuteWhole ? { totals: true } : part,
  );
}

/** Reads over the in-memory records, decoded by the layout's decoder as the Mongo reads are. */
export class MemoryBucketReads implements BucketReads {
  constructor(private readonly state: MemoryState) {}

  private records(name: string): BucketRecord[] {
    return this.state.collections.records(name);
  }

  /** Buckets with ticks of a scope, partition by partition. */
  private inScope(scope: BucketScope): BucketRecord[] {
    const { slotMs } = LEVEL_SPECS[scope.level];
    return partitionsInRange(scope.level, scope.fromMs, scope.toMs).flatMap((range) =>
      this.records(range.name).filter((record) => {
        const start = startOf(record);
        return (
          start > scope.fromMs - slotMs &&
          start < scope.toMs &&
          ticksOf(record) > 0 &&
          (scope.metric === undefined || record.metric === scope.metric) &&
          hasTags(record, scope.tags)
        );
      }),
    );
  }

  readSlots(query: SlotRangeQuery): Promise<FieldSlot[]> {
    const part: FieldPart =
      query.detail === 'sub' ? { totals: false, sub: 'all' } : { totals: true };
    const { slotMs } = LEVEL_SPECS[query.level];
    const slots = partitionsInRange(query.level, query.fromMs, query.toMs)
      .flatMap((range) => this.records(range.name))
      .filter((record) => {
        const start = startOf(record);
        return (
          record.series === query.series && start > query.fromMs - slotMs && start < query.toMs
        );
      })
      .sort((a, b) => startOf(a) - startOf(b))
      .slice(0, Math.max(0, query.limit))
      .map((record) => decode(query.level, record, query.field, part));
    return Promise.resolve(slots);
  }

  readPart(query: PartQuery): Promise<FieldSlot[]> {
    const { part } = query;
    const collection = this.state.collections.get(partitionOf(part.level, part.start).name);
    const decoded = partOf(part, query.whole);
    const slots: FieldSlot[] = [];
    for (const series of new Set(query.series)) {
      const record = collection?.get(bucketId(part.level, series, part.start));
      if (record) slots.push(decode(part.level, record, query.field, decoded));
    }
    return Promise.resolve(slots);
  }

  readMetricPart(query: MetricPartQuery): Promise<FieldSlot[]> {
    const { part } = query;
    const decoded = partOf(part, query.whole);
    const slots = this.records(partitionOf(part.level, part.start).name)
      .filter(
        (record) =>
          record.metric === query.metric &&
          startOf(record) === part.start &&
          ticksOf(record) > 0 &&
          hasTags(record, query.tags),
      )
      .sort((a, b) => byKey(String(a.series), String(b.series)))
      .slice(0, Math.max(0, query.limit))
      .map((record) => decode(part.level, record, query.field, decoded));
    return Promise.resolve(slots);
  }

  countBuckets(scope: BucketScope): Promise<number> {
    return Promise.resolve(this.inScope(scope).length);
  }

  findSeries(scope: BucketScope, limit: number): Promise<SeriesRow[]> {
    const found = new Map<string, SeriesRow & { fieldSet: Set<string> }>();
    for (const record of this.inScope(scope)) {
      const series = String(record.series);
      const row = found.get(series) ?? {
        series,
        metric: String(record.metric),
        tags: copy((record.tags ?? {}) as Record<string, string>),
        fields: [],
        lastSlotMs: startOf(record),
        fieldSet: new Set<string>(),
      };
      for (const name of fieldNames(record)) row.fieldSet.add(name);
      row.lastSlotMs = Math.max(row.lastSlotMs, startOf(record));
      found.set(series, row);
    }
    return Promise.resolve(
      [...found.values()]
        .sort((a, b) => byKey(a.series, b.series))
        .slice(0, Math.max(0, limit))
        .map(({ fieldSet, ...row }) => ({ ...row, fields: [...fieldSet].sort(byKey) })),
    );
  }

  /** Names sampled from up to `sample` buckets of each metric per partition, as the Mongo reads do. */
  listMetrics(scope: BucketScope, sample: number): Promise<MetricRow[]> {
    const found = new Map<string, { fields: Set<string>; tags: Set<string> }>();
    const sampled = new Map<string, number>();
    for (const record of this.inScope(scope)) {
      const metric = String(record.metric);
      const entry = found.get(metric) ?? { fields: new Set<string>(), tags: new Set<string>() };
      found.set(metric, entry);
      const key = `${partitionOf(scope.level, startOf(record)).name}|${metric}`;
      const taken = sampled.get(key) ?? 0;
      if (taken >= sample) continue;
      sampled.set(key, taken + 1);
      for (const name of fieldNames(record)) entry.fields.add(name);
      for (const tag of Object.keys(record.tags ?? {})) entry.tags.add(tag);
    }
    return Promise.resolve(
      [...found]
        .sort(([a], [b]) => byKey(a, b))
        .map(([metric, { fields, tags }]) => ({
          metric,
          fields: [...fields].sort(byKey),
          tags: [...tags].sort(byKey),
        })),
    );
  }

  newestBucket(
    level: Level,
    series: string,
    partitions: number,
  ): Promise<NewestBucket | undefined> {
    const searched = this.state.collections
      .names()
      .map((name) => parsePartitionName(name))
      .filter((range): range is PartitionRange => range?.level === level)
      .sort((a, b) => b.startMs - a.startMs)
      .slice(0, Math.max(0, partitions));
    for (const range of searched) {
      const newest = this.records(range.name)
        .filter((record) => record.series === series && ticksOf(record) > 0)
        .sort((a, b) => startOf(b) - startOf(a))[0];
      if (newest === undefined) continue;
      const lastTimes = Object.values((newest.f ?? {}) as Record<string, unknown>)
        .filter(isObservedAggregate)
        .map((field) => field.last.t);
      return Promise.resolve({
        start: startOf(newest),
        lastTickMs: lastTimes.length > 0 ? Math.max(...lastTimes) : null,
      });
    }
    return Promise.resolve(undefined);
  }

  metricDensities(level: Level, fromMs: number, toMs: number): Promise<MetricDensity[]> {
    const totals = new Map<string, { series: Set<string>; buckets: number; ticks: number }>();
    for (const range of partitionsInRange(level, fromMs, toMs)) {
      for (const record of this.records(range.name)) {
        const start = startOf(record);
        if (!(start >= fromMs && start < toMs && ticksOf(record) > 0)) continue;
        const metric = String(record.metric);
        const into = totals.get(metric) ?? { series: new Set(), buckets: 0, ticks: 0 };
        into.series.add(String(record.series));
        into.buckets += 1;
        into.ticks += ticksOf(record);
        totals.set(metric, into);
      }
    }
    const minutesPerSlot = LEVEL_SPECS[level].slotMs / 60_000;
    return Promise.resolve(
      [...totals]
        .map(([metric, t]) => ({
          metric,
          series: t.series.size,
          buckets: t.buckets,
          ticks: t.ticks,
          perMinute: t.ticks / (t.buckets * minutesPerSlot),
        }))
        .sort((a, b) => byKey(a.metric, b.metric)),
    );
  }
}
