import {
  deltaKey,
  foldBatch,
  slotStart,
  type BucketDelta,
  type FoldInput,
  type FoldPolicy,
  type Level,
} from '@tickertape/buckets';
import { isRetriable } from '@tickertape/errors';
import { MongoBulkWriteError, type AnyBulkWriteOperation, type Db, type Document } from 'mongodb';
import { guardedUpdate } from '../layout/update.js';
import type { ApplyStats, PartitionTarget } from '../port/bucket-writes.js';
import { StoreErrorCode, StoreWriteError } from '../store-error.js';
import { DUPLICATE_KEY, isTransientMongoError, writeErrorsOf } from './transient.js';

type BucketDoc = Document & { _id: string };

function operationFor(delta: BucketDelta): AnyBulkWriteOperation<BucketDoc> {
  const { filter, update } = guardedUpdate(delta);
  return { updateOne: { filter, update, upsert: true } };
}

/** The deltas by the collection they are written to: their partition, or its shadow. */
function byCollection(
  deltas: Iterable<BucketDelta>,
  target: PartitionTarget,
): Map<string, BucketDelta[]> {
  const groups = new Map<string, BucketDelta[]>();
  for (const delta of deltas) {
    const collection = target(delta.collection);
    const group = groups.get(collection);
    if (group) group.push(delta);
    else groups.set(collection, [delta]);
  }
  return groups;
}

/** Writes one collection's deltas in one unordered bulk write; returns the deltas that hit the guard. */
async function writeGroup(
  db: Db,
  collection: string,
  deltas: BucketDelta[],
): Promise<BucketDelta[]> {
  try {
    await db
      .collection<BucketDoc>(collection)
      .bulkWrite(deltas.map(operationFor), { ordered: false });
    return [];
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) {
      throw new StoreWriteError(StoreErrorCode.WriteFailed, `bulk write to ${collection} failed`, {
        retriable: isRetriable(err) || isTransientMongoError(err),
        cause: err,
      });
    }
    const errors = writeErrorsOf(err);
    // No per-operation errors means the command itself failed (a shutdown, a write concern not
    // met): nothing says which updates landed, so the flush fails — retried when the cause
    // passes — and is never counted as written.
    if (errors.length === 0 || err.writeConcernError !== undefined) {
      throw new StoreWriteError(StoreErrorCode.WriteFailed, `bulk write to ${collection} failed`, {
        retriable: isTransientMongoError(err) || err.writeConcernError !== undefined,
        cause: err,
      });
    }
    const other = errors.find((e) => e.code !== DUPLICATE_KEY);
    if (other) {
      throw new StoreWriteError(
        StoreErrorCode.WriteFailed,
        `bulk write to ${collection} failed: ${other.errmsg ?? other.code}`,
        {
          cause: err,
        },
      );
    }
    return errors.map((e) => deltas[e.index]!);
  }
}

/**
 * The records of `inputs` that the conflicted buckets have not absorbed yet, given each one's
 * applied offset: the prefix property (docs/exactly-once.md) makes one number per partition
 * enough. One pass over the inputs, however many buckets conflicted (a replay from offset 0
 * conflicts on every bucket of every flush).
 */
function unapplied(
  level: Level,
  inputs: readonly FoldInput[],
  conflicted: readonly BucketDelta[],
  applied: ReadonlyMap<string, Document>,
): FoldInput[] {
  const marks = new Map<string, number>();
  for (const delta of conflicted) {
    const mark = applied.get(delta.id)?.[String(delta.kafkaPartition)] as number | undefined;
    marks.set(deltaKey(delta.kafkaPartition, delta.slotStart, delta.seriesKey), mark ?? -1);
  }
  return inputs.filter((input) => {
    const mark = marks.get(
      deltaKey(input.kafkaPartition, slotStart(level, input.ts), input.seriesKey),
    );
    return mark !== undefined && input.offset > mark;
  });
}

async function appliedOffsets(
  db: Db,
  collection: string,
  conflicted: BucketDelta[],
): Promise<Map<string, Document>> {
  const docs = await db
    .collection<BucketDoc>(collection)
    .find({ _id: { $in: conflicted.map((d) => d.id) } }, { projection: { ap: 1 } })
    .toArray();
  return new Map(docs.map((doc) => [doc._id, (doc.ap ?? {}) as Document]));
}

/** Called once per partition collection before the first write into it. */
export type EnsureCollection = (collection: string, delta: BucketDelta) => Promise<void>;

/**
 * Applies one flush: folds the records into one delta per bucket, writes each partition
 * collection's deltas with one unordered bulk write (collections in parallel), and resolves
 * replays — buckets that already hold part of the flush — by re-folding only what they lack.
 * Resolves when every record is durably in its bucket; the caller commits offsets after that.
 */
export async function applyFlush(
  db: Db,
  level: Level,
  inputs: readonly FoldInput[],
  ensure: EnsureCollection = () => Promise.resolve(),
  target: PartitionTarget = (collection) => collection,
  policy?: FoldPolicy,
): Promise<ApplyStats> {
  const deltas = foldBatch(level, inputs, policy);
  const stats: ApplyStats = {
    buckets: deltas.size,
    operations: deltas.size,
    bulkWrites: 0,
    conflicts: 0,
  };
  let pending = byCollection(deltas.values(), target);
  await Promise.all([...pending].map(([collection, group]) => ensure(collection, group[0]!)));
  for (let round = 0; pending.size > 0; round++) {
    if (round > 2) {
      throw new StoreWriteError(
        StoreErrorCode.ConflictUnresolved,
        'buckets kept conflicting after re-folding; two writers for one Kafka partition?',
        {
          retriable: true,
        },
      );
    }
    const next = new Map<string, BucketDelta[]>();
    await Promise.all(
      [...pending].map(async ([collection, group]) => {
        stats.bulkWrites += 1;
        const conflicted = await writeGroup(db, collection, group);
        if (conflicted.length === 0) return;
        stats.conflicts += conflicted.length;
        const applied = await appliedOffsets(db, collection, conflicted);
        const retries = [
          ...foldBatch(level, unapplied(level, inputs, conflicted, applied), policy).values(),
        ];
        if (retries.length > 0) {
          stats.operations += retries.length;
          next.set(collection, retries);
        }
      }),
    );
    pending = next;
  }
  return stats;
}
