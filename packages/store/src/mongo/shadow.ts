import { parsePartitionName, type PartitionRange } from '@tickertape/buckets';
import { MongoBulkWriteError, type Db, type Document, type Filter } from 'mongodb';
import { renamedSwap, replacedCollectionOf } from '../layout/shadow-plan.js';
import { parseShadowName } from '../layout/shadow-names.js';
import type { CleanupOptions, ShadowPartition, SwapResult } from '../port/history.js';
import { ShadowError, ShadowErrorCode } from '../shadow-error.js';
import { runsOf } from './history-runs.js';
import { collectionNames, ensurePartition } from './partitions.js';
import { DUPLICATE_KEY, writeErrorsOf } from './transient.js';
import { bumpGeneration } from './watermarks.js';

type BucketDoc = Document & { _id: string };

/*
 * Shadow collections: a rebuild or a backfill builds the buckets of a time range beside the live
 * partition, checks them, and only then swaps them in, so a reader never sees a half-built
 * range and a failed run leaves the live data as it was (docs/history.md).
 */

/** Progress of each partition's swap, so a swap killed half-way resumes at the right step. */
export const SHADOW_SWAPS_COLLECTION = 'rebuild_swaps';

interface SwapRecord {
  _id: string;
  live: string;
  replaced: string;
  state: 'saved' | 'swapped';
  method: SwapResult['method'];
  saved: number;
  updatedAt: Date;
}

const BATCH = 500;

function liveRange(part: ShadowPartition): PartitionRange {
  const range = parsePartitionName(part.live);
  if (range === undefined)
    throw new ShadowError(ShadowErrorCode.InvalidShadow, `${part.live} is not a partition name`);
  return range;
}

function inRange(part: ShadowPartition): Filter<BucketDoc> {
  return { start: { $gte: new Date(part.fromMs), $lt: new Date(part.toMs) } };
}

/** Creates the shadow with the partition's indexes (a swap by rename makes them the live ones). */
export async function prepareShadow(db: Db, part: ShadowPartition): Promise<void> {
  await ensurePartition(db, { ...liveRange(part), name: part.shadow });
}

async function collectionExists(db: Db, name: string): Promise<boolean> {
  return (await collectionNames(db)).includes(name);
}

/** Inserts what `into` lacks; a document already there (same `_id`) is kept as it is. */
async function insertMissing(db: Db, into: string, docs: BucketDoc[]): Promise<number> {
  if (docs.length === 0) return 0;
  try {
    await db.collection<BucketDoc>(into).insertMany(docs, { ordered: false });
    return docs.length;
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const errors = writeErrorsOf(err);
    if (errors.length === 0 || errors.some((e) => e.code !== DUPLICATE_KEY)) throw err;
    return docs.length - errors.length;
  }
}

async function copyMissing(db: Db, from: string, into: string, filter: Filter<BucketDoc>) {
  let copied = 0;
  let batch: BucketDoc[] = [];
  for await (const doc of db.collection<BucketDoc>(from).find(filter).sort({ _id: 1 })) {
    batch.push(doc);
    if (batch.length >= BATCH) {
      copied += await insertMissing(db, into, batch);
      batch = [];
    }
  }
  return copied + (await insertMissing(db, into, batch));
}

/**
 * Copies the live buckets of the part's range into its shadow (created if missing), so a run can
 * add to what is there. Idempotent: after a kill, a rerun copies only what the shadow lacks and
 * never overwrites a shadow bucket. Returns the buckets copied by this call.
 */
export async function seedShadow(db: Db, part: ShadowPartition): Promise<number> {
  await prepareShadow(db, part);
  return copyMissing(db, part.live, part.shadow, inRange(part));
}

async function saveOnce(
  db: Db,
  part: ShadowPartition,
  replaced: string,
  method: SwapResult['method'],
  record: SwapRecord | null,
  filter: Filter<BucketDoc>,
): Promise<number> {
  if (record?.state === 'saved') return record.saved;
  // Saved before anything live changes; a rerun must not save what this swap already wrote.
  const saved = await copyMissing(db, part.live, replaced, filter);
  await db
    .collection<SwapRecord>(SHADOW_SWAPS_COLLECTION)
    .updateOne(
      { _id: part.shadow },
      { $set: { live: part.live, replaced, state: 'saved', method, saved, updatedAt: new Date() } },
      { upsert: true },
    );
  return saved;
}

async function markSwapped(db: Db, part: ShadowPartition): Promise<void> {
  await db
    .collection<SwapRecord>(SHADOW_SWAPS_COLLECTION)
    .updateOne({ _id: part.shadow }, { $set: { state: 'swapped', updatedAt: new Date() } });
}

/**
 * Whole partition, real MongoDB: the live buckets are copied into the replaced collection, then
 * one renameCollection with dropTarget puts the shadow in the partition's place. A reader sees
 * the old partition, then the new one — never no partition (the drop and the rename are one
 * command); a cursor open on the old one across the swap fails and must be read again.
 */
async function swapByRename(
  db: Db,
  part: ShadowPartition,
  replaced: string,
  record: SwapRecord | null,
): Promise<SwapResult> {
  const saved = await saveOnce(db, part, replaced, 'rename', record, {});
  const written = await db.collection(part.shadow).countDocuments();
  await db.renameCollection(part.shadow, part.live, { dropTarget: true });
  await markSwapped(db, part);
  return renamedSwap(part, replaced, written, saved);
}

/**
 * Part of a partition, or the stand-in: each shadow bucket replaces its live one (or is inserted),
 * then the live buckets of the range the shadow lacks are deleted. Every bucket changes in one
 * single-document write, so a reader sees each bucket old or new; while the swap runs, the range
 * mixes old and new buckets, and a bucket only the old data had goes last.
 */
async function swapByDocuments(
  db: Db,
  part: ShadowPartition,
  replaced: string,
  record: SwapRecord | null,
): Promise<SwapResult> {
  const filter = inRange(part);
  const saved = await saveOnce(db, part, replaced, 'documents', record, filter);
  await ensurePartition(db, liveRange(part));
  const live = db.collection<BucketDoc>(part.live);
  const kept = new Set<string>();
  let written = 0;
  let batch: BucketDoc[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await live.bulkWrite(
      batch.map((doc) => ({
        replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true },
      })),
      { ordered: false },
    );
    written += batch.length;
    batch = [];
  };
  for await (const doc of db.collection<BucketDoc>(part.shadow).find(filter).sort({ _id: 1 })) {
    kept.add(doc._id);
    batch.push(doc);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  const gone: string[] = [];
  for await (const doc of live.find(filter, { projection: { _id: 1 } }))
    if (!kept.has(doc._id)) gone.push(doc._id);
  let deleted = 0;
  for (let i = 0; i < gone.length; i += BATCH)
    deleted += (await live.deleteMany({ _id: { $in: gone.slice(i, i + BATCH) } })).deletedCount;
  // Marked before the shadow goes: a rerun that finds the record says "swapped" and stops.
  await markSwapped(db, part);
  await db.collection(part.shadow).drop();
  return {
    live: part.live,
    replacedCollection: replaced,
    method: 'documents',
    written,
    saved,
    deleted,
    resumed: false,
  };
}

function alreadySwapped(part: ShadowPartition, replaced: string, record: SwapRecord): SwapResult {
  return {
    live: part.live,
    replacedCollection: replaced,
    method: record.method,
    written: 0,
    saved: record.saved,
    deleted: 0,
    resumed: true,
  };
}

/**
 * Puts the shadow's buckets in place of the live ones of the part's range, keeping the live ones
 * in the replaced collection until `cleanupReplaced`. Safe to rerun after a kill at any point:
 * the live buckets are saved once, before anything live changes, and each later step repeats
 * harmlessly. `method` forces a way (tests); by default a whole partition is renamed into place
 * where the server renames safely (`renamesSafely`, probed once when the store opened), anything
 * else is swapped bucket by bucket.
 */
export async function swapShadow(
  db: Db,
  part: ShadowPartition,
  renamesSafely: boolean,
  options: { method?: SwapResult['method'] } = {},
): Promise<SwapResult> {
  const replaced = replacedCollectionOf(part);
  const record = await db
    .collection<SwapRecord>(SHADOW_SWAPS_COLLECTION)
    .findOne({ _id: part.shadow });
  if (!(await collectionExists(db, part.shadow))) {
    // Only the swap removes a shadow it has begun; no record means it never existed.
    if (record === null)
      throw new ShadowError(
        ShadowErrorCode.ShadowMissing,
        `${part.shadow} does not exist: nothing to swap into ${part.live}`,
      );
    // A resumed swap: the crash may have come between the swap and the bump.
    await bumpGeneration(db, part.level, Date.now());
    return alreadySwapped(part, replaced, record);
  }
  if (record?.state === 'swapped') {
    await db.collection(part.shadow).drop();
    await bumpGeneration(db, part.level, Date.now());
    return alreadySwapped(part, replaced, record);
  }
  const method =
    options.method ?? record?.method ?? (part.whole && renamesSafely ? 'rename' : 'documents');
  const result =
    method === 'rename' && part.whole
      ? await swapByRename(db, part, replaced, record)
      : await swapByDocuments(db, part, replaced, record);
  // The swap rewrote final buckets: readers' caches and ETags of the level must not outlive it.
  await bumpGeneration(db, part.level, Date.now());
  return result;
}

/**
 * Drops every replaced collection, and the shadows of runs that are over: finished, failed, or
 * abandoned (not updated for `abandonedAfterMs`). A replaced collection or shadow of a run that is
 * still alive is kept, and so is a shadow no recorded run owns (someone may be building it).
 * Returns the collections dropped (with `dryRun`, those it would drop).
 */
export async function cleanupReplaced(db: Db, options: CleanupOptions = {}): Promise<string[]> {
  const nowMs = options.nowMs ?? Date.now();
  const staleBefore = nowMs - (options.abandonedAfterMs ?? 3_600_000);
  const runs = new Map((await runsOf(db).find().toArray()).map((run) => [run._id, run]));
  const alive = (runId: string) => {
    const run = runs.get(runId);
    return (
      run !== undefined &&
      (run.state === 'running' || run.state === 'swapping') &&
      run.updatedAt.getTime() >= staleBefore
    );
  };
  const names = (await collectionNames(db)).sort();
  const doomed = names.filter((name) => {
    const parsed = parseShadowName(name);
    if (parsed === undefined || alive(parsed.runId)) return false;
    return parsed.kind === 'replaced' || runs.has(parsed.runId);
  });
  if (options.dryRun === true) return doomed;
  for (const name of doomed) await db.collection(name).drop();
  const shadows = doomed.filter((name) => parseShadowName(name)?.kind === 'shadow');
  await db.collection<SwapRecord>(SHADOW_SWAPS_COLLECTION).deleteMany({
    $or: [{ _id: { $in: shadows } }, { replaced: { $in: doomed } }],
  });
  return doomed;
}
