import { SegmentConflictError, type SegmentDocument, type SeriesPlan } from '@tickertape/segments';
import { MongoBulkWriteError, type AnyBulkWriteOperation, type Db } from 'mongodb';

/** Creates a day's collection (by name) before its first new segment; the store remembers which. */
export type EnsureDay = (collection: string) => Promise<void>;

/** SegmentStore.appendFlush: phase one, then phase two (see the port). */
export async function appendFlush(
  db: Db,
  plans: readonly SeriesPlan[],
  ensure: EnsureDay,
): Promise<number> {
  return (await appendAndClose(db, plans)) + (await create(db, plans, ensure));
}

/**
 * Phase one: points appended to the newest segments, and `nextStart` on the segments that stop
 * being newest. Done before any new segment exists, so after a crash the newest segment in the
 * database never holds offsets above points that are missing.
 */
async function appendAndClose(db: Db, plans: readonly SeriesPlan[]): Promise<number> {
  const byCollection = new Map<string, AnyBulkWriteOperation<SegmentDocument>[]>();
  const add = (collection: string, op: AnyBulkWriteOperation<SegmentDocument>) => {
    const ops = byCollection.get(collection);
    if (ops) ops.push(op);
    else byCollection.set(collection, [op]);
  };
  for (const plan of plans) {
    const a = plan.append;
    if (a) {
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
  let matched = 0;
  for (const [collection, ops] of byCollection) {
    const result = await db
      .collection<SegmentDocument>(collection)
      .bulkWrite(ops, { ordered: false });
    operations += ops.length;
    matched += result.matchedCount;
  }
  // Closes always match (their segment exists); an append that matched nothing was already
  // applied by someone else.
  if (matched < operations)
    throw new SegmentConflictError(
      `${operations - matched} segment updates matched nothing: another writer applied these offsets`,
    );
  return operations;
}

/**
 * Phase two: new segments, oldest day first and in id order within a day (ordered inserts),
 * so a crash leaves a prefix of them: the newest one present covers every offset below it.
 */
async function create(db: Db, plans: readonly SeriesPlan[], ensure: EnsureDay): Promise<number> {
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
    await ensure(collection);
    try {
      await db.collection<SegmentDocument>(collection).insertMany(docs, { ordered: true });
    } catch (err) {
      if (err instanceof MongoBulkWriteError)
        throw new SegmentConflictError(`a new segment in ${collection} exists already`, err);
      throw err;
    }
    operations += docs.length;
  }
  return operations;
}
