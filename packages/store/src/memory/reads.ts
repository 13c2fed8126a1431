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
import { isObservedAggregate } from '../stored.js';
import { compareBson } from './bson-order.js';
import { copy, startOf, ticksOf } from './collections.js';
import { decodeField, type DecodeParts } from './decode.js';
import type { MemoryState } from './state.js';

/** The partitions of `level` that `[fromMs, toMs)` touches, in time order. */
function partitionsInRange(level: Level, fromMs: number, toMs: number): PartitionRange[] {
  const ranges: PartitionRange[] = [];
  for (let range = partitionOf(level, fromMs); range.startMs < toMs; range = nextPartition(range))
    ranges.push(range);
  return ranges;
}

const byKey = (a: string, b: string) => compareBson(a, b);

function hasTags(record: BucketRecord, tags: Readonly<Record<string, string>> | undefined): boolean {
  const own = (record.tags ?? {}) as Record<string, unknown>;
  return Object.entries(tags ?? {}).every(([key, value]) => own[key] === value);
}

function fieldNames(record: BucketRecord): string[] {
  return Object.keys((record.f ?? {}) as Record<string, unknown>);
}

/** What a part of a field decodes: totals, the part's sub-slots, or (whole) every sub-slot it serves. */
function partsOf(part: BucketPart, whole: boolean): DecodeParts {
  if (whole) {
    // A minute bucket serves only its totals to a window (cover.ts): its seconds hold no min,
    // max, first or last.
    return LEVEL_SPECS[part.level].subKey === 'sec'
      ? {}
      : { sub: { from: 0, to: LEVEL_SPECS[part.level].subSlots } };
  }
  return part.sub === undefined ? {} : { sub: part.sub };
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
    const parts: DecodeParts =
      query.detail === 'sub' ? { sub: { from: 0, to: LEVEL_SPECS[query.level].subSlots } } : {};
    const slots = partitionsInRange(query.level, query.fromMs, query.toMs)
      .flatMap((range) => this.records(range.name))
      .filter((record) => {
        const start = startOf(record);
        return (
          record.series === query.series &&
          start >= query.fromMs &&
          start < query.toMs
        );
      })
      .sort((a, b) => startOf(a) - startOf(b))
      .slice(0, Math.max(0, query.limit))
      .map((record) => decodeField(query.level, record, query.field, parts));
    return Promise.resolve(slots);
  }

  readPart(query: PartQuery): Promise<FieldSlot[]> {
    const { part } = query;
    const collection = this.state.collections.get(partitionOf(part.level, part.start).name);
    const parts = partsOf(part, query.whole);
    const slots: FieldSlot[] = [];
    for (const series of new Set(query.series)) {
      const record = collection?.get(bucketId(part.level, series, part.start));
      if (record) slots.push(decodeField(part.level, record, query.field, parts));
    }
    return Promise.resolve(slots);
  }

  readMetricPart(query: MetricPartQuery): Promise<FieldSlot[]> {
    const { part } = query;
    const parts = partsOf(part, query.whole);
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
      .map((record) => decodeField(part.level, record, query.field, parts));
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

  listMetrics(scope: BucketScope, sample: number): Promise<MetricRow[]> {
    const found = new Map<string, { buckets: number; fields: Set<string>; tags: Set<string> }>();
    for (const record of this.inScope(scope)) {
      const metric = String(record.metric);
      const entry = found.get(metric) ?? { buckets: 0, fields: new Set(), tags: new Set() };
      found.set(metric, entry);
      if (entry.buckets >= sample) continue;
      entry.buckets += 1;
      for (const name of fieldNames(record)) entry.fields.add(name);
      for (const tag of Object.keys((record.tags ?? {}) as Record<string, unknown>))
        entry.tags.add(tag);
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

  newestBucket(level: Level, series: string, partitions: number): Promise<NewestBucket | undefined> {
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
