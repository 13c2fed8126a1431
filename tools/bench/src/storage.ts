import type { CollectionStorage, RollupStore } from '@tickertape/store';

export type CollectionStored = Omit<CollectionStorage, 'indexSampled'>;

export interface Stored {
  collections: string[];
  /** The same figures per collection (e.g. minute vs hour partitions). */
  byCollection: CollectionStored[];
  documents: number;
  /** Sum of `collStats.size`: the BSON size of the documents, as the server reports it. */
  dataBytes: number;
  /**
   * Estimated: the BSON size of every index's key values, summed over the documents (see
   * `CollectionStorage.indexBytes`). A real B-tree adds per-entry overhead and prefix compression
   * on top; the ratio between designs is what this is for.
   */
  indexBytes: number;
  /** Documents the index estimate read; fewer than `documents` means it was scaled up. */
  indexSampled: number;
}

/**
 * What one design's database holds, as the store measures it: the store reports every collection
 * of its database, so a naive design's per-tick collection is measured the same way as our
 * partitions.
 */
export async function storedBytes(store: RollupStore): Promise<Stored> {
  const stats = await store.storageStats();
  const stored: Stored = {
    collections: stats.map((each) => each.name),
    byCollection: [],
    documents: 0,
    dataBytes: 0,
    indexBytes: 0,
    indexSampled: 0,
  };
  for (const { indexSampled, ...each } of stats) {
    stored.documents += each.documents;
    stored.dataBytes += each.dataBytes;
    stored.indexBytes += each.indexBytes;
    stored.indexSampled += indexSampled;
    stored.byCollection.push(each);
  }
  return stored;
}
