import type { FoldInput } from '@tickertape/buckets';
import { MongoBulkWriteError, type AnyBulkWriteOperation, type Db } from 'mongodb';
import { planSeries, type PlanOptions, type SegmentHead, type SeriesPlan } from './plan.js';
import { SegmentConflictError } from './segment-error.js';
import { ensureSegmentCollection, listSegmentDays } from './segment-collections.js';
import { segmentCollection, seriesIdRange, type SegmentDocument } from './segment-shape.js';

export interface SegmentApplyStats {
  points: number;
  /** Segments appended to, closed or created: one operation each. */
  operations: number;
  created: number;
  replayed: number;
  late: number;
  unchanged: number;
}

export interface SegmentWriterOptions extends Omit<PlanOptions, 'writeOnlyOnChange'> {
  /** Metrics whose points are written only when a value changed. */
  writeOnlyOnChange: ReadonlySet<string>;
}

/**
 * Applies flushes of ticks to the segment store. Keeps each series' newest segment in memory:
 * a series lives in one Kafka partition, and one consumer owns a partition at a time, so the
 * cache is right until a rebalance — call `forget()` then. Every write is guarded (the append by
 * the applied offset, a new segment by its deterministic id), so a stale cache or a zombie
 * writer makes the flush fail with a retriable conflict rather than write twice.
 */
export class SegmentWriter {
  private readonly heads = new Map<string, SegmentHead | null>();
  private readonly ready = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly options: SegmentWriterOptions,
  ) {}

  forget(): void {
    this.heads.clear();
  }

  async apply(inputs: readonly FoldInput[]): Promise<SegmentApplyStats> {
    const bySeries = new Map<string, FoldInput[]>();
    for (const input of inputs) {
      const list = bySeries.get(input.seriesKey);
      if (list) list.push(input);
      else bySeries.set(input.seriesKey, [input]);
    }
    await this.loadHeads([...bySeries.keys()].filter((s) => !this.heads.has(s)));
    const plans: SeriesPlan[] = [];
    for (const [series, ticks] of bySeries) {
      ticks.sort((a, b) => a.kafkaPartition - b.kafkaPartition || a.offset - b.offset);
      plans.push(
        planSeries(this.heads.get(series) ?? undefined, ticks, {
          maxPoints: this.options.maxPoints,
          writeOnlyOnChange: this.options.writeOnlyOnChange.has(ticks[0]!.metric),
        }),
      );
    }
    try {
      const operations = (await this.appendAndClose(plans)) + (await this.create(plans));
      for (const plan of plans) if (plan.head) this.heads.set(plan.series, plan.head);
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
      };
    } catch (err) {
      // Whatever was written stays (every write is idempotent under the guard); the heads are
      // read again before the retry so the plan starts from what the database holds.
      for (const plan of plans) this.heads.delete(plan.series);
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

  /** The newest segment of each series, newest day first; series with none are remembered as such. */
  private async loadHeads(series: readonly string[]): Promise<void> {
    if (series.length === 0) return;
    const missing = new Set(series);
    for (const day of (await listSegmentDays(this.db)).reverse()) {
      if (missing.size === 0) break;
      const rows = await this.db
        .collection<SegmentDocument>(segmentCollection(day))
        .aggregate<{ _id: string; head: SegmentDocument }>([
          { $match: { $or: [...missing].map((s) => ({ _id: seriesIdRange(s) })) } },
          { $project: { t: 0, v: 0 } },
          { $sort: { _id: -1 } },
          { $group: { _id: '$series', head: { $first: '$$ROOT' } } },
        ])
        .toArray();
      for (const { _id, head } of rows) {
        this.heads.set(_id, {
          id: head._id,
          day: head.day,
          n: head.n,
          end: head.end,
          last: head.last,
          ap: head.ap,
        });
        missing.delete(_id);
      }
    }
    for (const s of missing) this.heads.set(s, null);
  }
}
