import {
  segmentCollection,
  type Chain,
  type RawPointsLimits,
  type RawPointsQuery,
  type RawPointsResult,
  type SegmentDocument,
  type SegmentRetentionPolicy,
  type SegmentRetentionRun,
  type SegmentStore,
  type SeriesPlan,
  type StoredHeads,
} from '@tickertape/segments';
import type { Db } from 'mongodb';
import { appendFlush } from './append-flush.js';
import { ensureSegmentCollection, listSegmentDays } from './day-collections.js';
import { readHeads } from './read-heads.js';
import { readRawPoints } from './read-points.js';
import { applySegmentRetention } from './retention.js';

/**
 * The segment store on MongoDB: one collection per UTC day (`segments_<YYYYMMDD>`), one document
 * per segment (`SegmentDocument` as it is), the exactly-once guards in the update filters.
 */
export class MongoSegmentStore implements SegmentStore {
  /** Day collections this store created or found, so a flush ensures each once per process. */
  private readonly ready = new Set<string>();

  constructor(private readonly db: Db) {}

  readHeads(chains: readonly Chain[]): Promise<StoredHeads> {
    return readHeads(this.db, chains);
  }

  appendFlush(plans: readonly SeriesPlan[]): Promise<number> {
    return appendFlush(this.db, plans, (collection) => this.ensureCollection(collection));
  }

  readPoints(query: RawPointsQuery, limits: RawPointsLimits): Promise<RawPointsResult> {
    return readRawPoints(this.db, query, limits);
  }

  listDays(): Promise<string[]> {
    return listSegmentDays(this.db);
  }

  scanDay(day: string): AsyncIterable<SegmentDocument> {
    return this.db.collection<SegmentDocument>(segmentCollection(day)).find({}).sort({ _id: 1 });
  }

  ensureDay(day: string): Promise<void> {
    return this.ensureCollection(segmentCollection(day));
  }

  async applyRetention(
    nowMs: number,
    policy: SegmentRetentionPolicy,
    dryRun: boolean,
  ): Promise<SegmentRetentionRun> {
    const run = await applySegmentRetention(this.db, nowMs, policy, dryRun);
    // A day recreated after its drop gets its indexes again.
    for (const collection of run.dropped) this.ready.delete(collection);
    return run;
  }

  private async ensureCollection(collection: string): Promise<void> {
    if (this.ready.has(collection)) return;
    await ensureSegmentCollection(this.db, collection);
    this.ready.add(collection);
  }
}

/** The segment store of one database (openMongoStores makes one per database it opens). */
export function mongoSegmentStore(db: Db): SegmentStore {
  return new MongoSegmentStore(db);
}
