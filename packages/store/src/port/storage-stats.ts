/** What one collection of the store's database holds, as the benchmark reports it. */
export interface CollectionStorage {
  /** A partition, a shadow, the store's bookkeeping, or another tenant of the database. */
  name: string;
  /**
   * `buckets`: a partition, shadow or replaced copy; `store`: the store's own small documents
   * (watermarks, the level policy, history's runs); `other`: not the store's.
   */
  kind: 'buckets' | 'store' | 'other';
  documents: number;
  /** The documents' stored size (BSON), as the server reports it. */
  dataBytes: number;
  /**
   * Estimated: the size of every index's key values, summed over the documents (sampled, then
   * scaled). Measured because the local stand-in's `indexSize` counts entries, not bytes: the
   * ratio between designs is what this is for, not a B-tree's real footprint.
   */
  indexBytes: number;
  /** Documents the index estimate read; fewer than `documents` means it was scaled up. */
  indexSampled: number;
}

export interface StorageStats {
  /** Every collection of the store's database, by name (system collections left out). */
  storageStats(): Promise<CollectionStorage[]>;
}
