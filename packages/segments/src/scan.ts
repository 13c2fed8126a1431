import type { Db } from 'mongodb';
import { segmentCollection, type SegmentDocument } from './segment-shape.js';

/** Every segment of one day (`20261121`), in `_id` order: series, chain, first offset. */
export function scanSegmentDay(db: Db, day: string): AsyncIterable<SegmentDocument> {
  return db.collection<SegmentDocument>(segmentCollection(day)).find({}).sort({ _id: 1 });
}
