import type { CollectionStorage } from '../port/storage-stats.js';
import type { Collections } from './collections.js';

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/**
 * The bucket collections' sizes, estimated as JSON (there is no BSON here): the figures only have
 * to rank and add up as the Mongo store's do. The one index is `_id`'s.
 */
export function storageStats(collections: Collections): CollectionStorage[] {
  return collections.names().map((name) => {
    const records = collections.records(name);
    return {
      name,
      kind: 'buckets' as const,
      documents: records.length,
      dataBytes: records.reduce((sum, record) => sum + bytesOf(record), 0),
      indexBytes: records.reduce((sum, record) => sum + bytesOf(record._id), 0),
      indexSampled: records.length,
    };
  });
}
