import type { FoldInput } from '@tickertape/buckets';
import { MongoBulkWriteError, type AnyBulkWriteOperation, type Db } from 'mongodb';
import { planSeries, type PlanOptions, type SegmentHead, type SeriesPlan } from './plan.js';
import { SegmentConflictError } from './segment-error.js';
import { ensureSegmentCollection, listSegmentDays } from './segment-collections.js';
import {
  partitionOfSegmentId,
  segmentCollection,
  seriesIdRange,
  type SegmentDocument,
} from './segment-shape.js';

export interface SegmentApplyStats {
  points: number;
  /** Segments appended to, closed or created: one operation each. */
  operations: number;
  created: number;
  replayed: number;
  late: number;
  unchanged: number;
  /**
   * Chains opened for a series that already has one from another Kafka partition: a producer
   * put the series on a second partition (another partitioner, or a repartitioned topic).
   */
  split: SeriesSplit[];
}

/** A series that began arriving on `partition` while it had points from `others`. */
export interface SeriesSplit {
  series: string;
  partition: number;
  others: number[];
}

export interface SegmentWriterOptions extends Omit<PlanOptions, 'writeOnlyOnChange'> {
  /** Metrics whose points are written only when a value changed. */
  writeOnlyOnChange: ReadonlySet<string>;
}

/** One series from one Kafka partition: what a chain of segments holds (segment-shape.ts). */
interface Chain {
  series: string;
  partition: number;
}

function chainKey(series: string, partition: number): string {
  return `${partition}/${series}`;
}

/**
 * Applies flushes of ticks to the segment store. Keeps each chain's newest segment in memory: a
 * chain is fed by one Kafka partition, and one consumer owns a partition at a time, so the cache
 * is right until a rebalance — call `forget()` then. Every write is guarded (the append by the
 * applied offset, a new segment by its deterministic id), so a stale cache or a zombie writer
 * makes the flush fail with a retriable conflict rather than write twice.
 */
export class SegmentWriter {
  /** Newest segment per chain (`chainKey`); null: the chain has none yet. */
  private readonly heads = new Map<string, SegmentHead | null>();
  private readonly ready = new Set<string>();
  /** The flush in progress: flushes of different partitions run one at a time (see apply). */
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly options: SegmentWriterOptions,
  ) {}

  forget(): void {
    this.heads.clear();
  }

  /**
   * Flushes run one after another even when a worker flushes its partitions concurrently: a new
   * chain is judged a split by the other partitions' heads, and two first flushes of one series
   * side by side would each see none (the split would go uncounted).
   */
  apply(inputs: readonly FoldInput[]): Promise<SegmentApplyStats> {
    const next = this.running.then(
      () => this.applyNow(inputs),
      () => this.applyNow(inputs),
    );
    this.running = next.catch(() => undefined);
    return next;
  }

  private async applyNow(inputs: readonly FoldInput[]): Promise<SegmentApplyStats> {
    const byChain = new Map<string, FoldInput[]>();
    for (const input of inputs) {
      const key = chainKey(input.seriesKey, input.kafkaPartition);
      const list = byChain.get(key);
      if (list) list.push(input);
      else byChain.set(key, [input]);
    }
    const unknown = [...byChain]
      .filter(([key]) => !this.heads.has(key))
      .map(([, [first]]) => ({ series: first!.seriesKey, partition: first!.kafkaPartition }));
    const others = await this.loadHeads(unknown);
    const plans: SeriesPlan[] = [];
    const split: SeriesSplit[] = [];
    // Partitions per series in this flush, so a new chain finds its siblings without a scan of
    // every chain (a first flush can open thousands).
    const partitionsInFlush = new Map<string, number[]>();
    for (const [first] of byChain.values()) {
      const list = partitionsInFlush.get(first!.seriesKey);
      if (list) list.push(first!.kafkaPartition);
      else partitionsInFlush.set(first!.seriesKey, [first!.kafkaPartition]);
    }
    for (const [key, ticks] of byChain) {
      ticks.sort((a, b) => a.offset - b.offset);
      const head = this.heads.get(key) ?? undefined;
      const { seriesKey: series, kafkaPartition: partition, metric } = ticks[0]!;
      if (head === undefined) {
        // A new chain: a split if the series has another one stored, or in this flush (when
        // both are new there, only the higher partition counts, so one split counts once).
        const existing = new Set(others.get(series));
        for (const other of partitionsInFlush.get(series) ?? []) {
          if (other === partition) continue;
          if (this.heads.get(chainKey(series, other)) || other < partition) existing.add(other);
        }
        if (existing.size > 0)
          split.push({ series, partition, others: [...existing].sort((a, b) => a - b) });
      }
      plans.push(
        planSeries(head, ticks, {
          maxPoints: this.options.maxPoints,
          writeOnlyOnChange: this.options.writeOnlyOnChange.has(metric),
        }),
      );
    }
    try {
      const operations = (await this.appendAndClose(plans)) + (await this.create(plans));
      for (const plan of plans) if (plan.head) this.heads.set(keyOf(plan), plan.head);
      const sum = (pick: (plan: SeriesPlan) => number) => plans.reduce((t, p) => t + pick(p), 0);
      return {
        points: sum(
          (p) => (p.append?.points.length ?? 0) + p.create.reduce((t, c) => t + c.doc.n, 0),
        ),
        operations,
        created: sum((p) => p.create.length),
        replayed: sum((p) => p.skipped.replayed),
        late: sum((p) => p.skipped.late),
        unchanged: sum((p) => p.skipped.unchanged),
        split,
      };
    } catch (err) {
      // Whatever was written stays (every write is idempotent under the guard); the heads are
      // read again before the retry so the plan starts from what the database holds.
      for (const plan of plans) this.heads.delete(keyOf(plan));
      throw err;
    }
  }

  /**
   * Phase one: points appended to the newest segments, and `nextStart` on the segments that stop
   * being newest. Done before any new segment exists, so after a crash the newest segment in the
   * database never holds offsets above points that are missing.
   */
  private async appendAndClose(plans: readonly SeriesPlan[]): Promise<number> {
    const byCollection = new Map<string, AnyBulkWriteOperation<SegmentDocument>[]>();
    const add = (collection: string, op: AnyBulkWriteOperation<SegmentDocument>) => {
      const ops = byCollection.get(collection);
      if (ops) ops.push(op);
      else byCollection.set(collection, [op]);
    };
    let appends = 0;
    for (const plan of plans) {
      const a = plan.append;
      if (a) {
        appends += 1;
        const last = a.points[a.points.length - 1]!;
        add(a.collection, {
          updateOne: {
            filter: { _id: a.id, [`ap.${a.partition}`]: { $not: { $gte: a.minOffset } } },
            update: {
              $push: {
                t: { $each: a.points.map((p) => p.t) },
                v: { $each: a.points.map((p) => p.v) },
              },
              $inc: { n: a.points.length },
              $set: {
                end: last.t,
                last,
                [`ap.${a.partition}`]: a.maxOffset,
                ...(a.nextStart === undefined ? {} : { nextStart: a.nextStart }),
              },
            },
          },
        });
      }
      for (const c of plan.close)
        add(c.collection, {
          updateOne: { filter: { _id: c.id }, update: { $set: { nextStart: c.nextStart } } },
        });
    }
    let operations = 0;
    let matchedAppends = 0;
    for (const [collection, ops] of byCollection) {
      const result = await this.db
        .collection<SegmentDocument>(collection)
        .bulkWrite(ops, { ordered: false });
      operations += ops.length;
      matchedAppends += result.matchedCount;
    }
    const closes = operations - appends;
    // Closes always match (their segment exists); an append that matched nothing was already applied by someone else.
    if (matchedAppends < appends + closes)
      throw new SegmentConflictError(
        `${appends + closes - matchedAppends} segment updates matched nothing: another writer applied these offsets`,
      );
    return operations;
  }

  /**
   * Phase two: new segments, oldest day first and in id order within a day (ordered inserts),
   * so a crash leaves a prefix of them: the newest one present covers every offset below it.
   */
  private async create(plans: readonly SeriesPlan[]): Promise<number> {
    const byCollection = new Map<string, SegmentDocument[]>();
    for (const plan of plans)
      for (const { collection, doc } of plan.create) {
        const docs = byCollection.get(collection);
        if (docs) docs.push(doc);
        else byCollection.set(collection, [doc]);
      }
    let operations = 0;
    for (const collection of [...byCollection.keys()].sort()) {
      const docs = byCollection.get(collection)!.sort((a, b) => (a._id < b._id ? -1 : 1));
      if (!this.ready.has(collection)) {
        await ensureSegmentCollection(this.db, collection);
        this.ready.add(collection);
      }
      try {
        await this.db.collection<SegmentDocument>(collection).insertMany(docs, { ordered: true });
      } catch (err) {
        if (err instanceof MongoBulkWriteError)
          throw new SegmentConflictError(`a new segment in ${collection} exists already`, err);
        throw err;
      }
      operations += docs.length;
    }
    return operations;
  }

  /**
   * The newest segment of each chain, newest day first; chains with none are remembered as such.
   * Returns, for each series one of whose chains has none, the partitions of its other chains:
   * those are found on the way, as the search for the missing chain reads every day.
   */
  private async loadHeads(chains: readonly Chain[]): Promise<Map<string, Set<number>>> {
    const others = new Map<string, Set<number>>();
    if (chains.length === 0) return others;
    const missing = new Map(chains.map((c) => [chainKey(c.series, c.partition), c]));
    const wanted = new Set(missing.keys());
    for (const day of (await listSegmentDays(this.db)).reverse()) {
      if (missing.size === 0) break;
      const series = new Set([...missing.values()].map((c) => c.series));
      const rows = await this.db
        .collection<SegmentDocument>(segmentCollection(day))
        .aggregate<{ head: SegmentDocument }>([
          { $match: { $or: [...series].map((s) => ({ _id: seriesIdRange(s) })) } },
          { $project: { t: 0, v: 0 } },
          { $sort: { _id: -1 } },
          // Newest per chain. Segments from before `p` existed group apart, so the chain is read
          // from the id, and the newest id of a chain wins below.
          { $group: { _id: { series: '$series', p: '$p' }, head: { $first: '$$ROOT' } } },
        ])
        .toArray();
      rows.sort((a, b) => (a.head._id < b.head._id ? 1 : -1));
      const found = new Set<string>();
      for (const { head } of rows) {
        const partition = partitionOfSegmentId(head._id);
        const key = chainKey(head.series, partition);
        if (missing.has(key)) {
          if (found.has(key)) continue;
          found.add(key);
          this.heads.set(key, {
            id: head._id,
            day: head.day,
            n: head.n,
            end: head.end,
            last: head.last,
            ap: head.ap,
          });
        } else if (!wanted.has(key)) {
          const seen = others.get(head.series) ?? new Set<number>();
          others.set(head.series, seen.add(partition));
        }
      }
      for (const key of found) missing.delete(key);
    }
    for (const key of missing.keys()) this.heads.set(key, null);
    return others;
  }
}

function keyOf(plan: SeriesPlan): string {
  return chainKey(plan.series, plan.partition);
}
