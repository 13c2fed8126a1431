import { parsePartitionName, type PartitionRange } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import { parseShadowName } from '../layout/shadow-names.js';

/**
 * Index names are fixed: mongo-java-server corrupts its catalogue when an index is re-created
 * under an existing name with different keys (docs/local-stack.md), and real MongoDB refuses
 * it, so a name must always mean the same keys.
 */
export const PARTITION_INDEXES = [
  // Finality, retention and "what changed since" scans walk buckets by slot start.
  { name: 'start_1', key: { start: 1 } },
  // Series discovery by metric within a partition, and a metric's buckets of one slot in series
  // order (a window by metric reads the first `limit` series without sorting the rest).
  { name: 'metric_1_start_1_series_1', key: { metric: 1, start: 1, series: 1 } },
] as const;

const NAMESPACE_EXISTS = 48;

/**
 * Creates a partition collection with its indexes (true if this call created it); safe to repeat and to race (two workers, or a
 * worker and the scheduler). `_id` needs no index of ours: bucket ids are `<seriesKey>:<stamp>`,
 * so a series' buckets are a left-anchored `_id` range.
 */
export async function ensurePartition(db: Db, range: PartitionRange): Promise<boolean> {
  const created = await db.createCollection(range.name).then(
    () => true,
    (err: unknown) => {
      if ((err as { code?: unknown }).code !== NAMESPACE_EXISTS) throw err;
      return false;
    },
  );
  await db
    .collection(range.name)
    .createIndexes(PARTITION_INDEXES.map(({ name, key }) => ({ name, key: { ...key } })));
  return created;
}

/**
 * Names of every collection present. mongo-java-server ignores `listCollections` filters, so
 * callers filter here for every server alike.
 */
export async function collectionNames(db: Db): Promise<string[]> {
  const collections = await db.listCollections({}, { nameOnly: true }).toArray();
  return collections.map((c) => c.name);
}

/** The live partitions present (shadows, replaced copies and other collections left out). */
export async function listPartitions(db: Db): Promise<PartitionRange[]> {
  const ranges: PartitionRange[] = [];
  for (const name of await collectionNames(db)) {
    const range = parsePartitionName(name);
    if (range !== undefined) ranges.push(range);
  }
  return ranges.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Collections that hold buckets: live partitions, shadows and replaced copies. */
export async function bucketCollectionNames(db: Db): Promise<string[]> {
  return (await collectionNames(db))
    .filter((name) => parsePartitionName(name) !== undefined || parseShadowName(name) !== undefined)
    .sort();
}

/** Names of the live partitions present. */
export async function listPartitionNames(db: Db): Promise<string[]> {
  return (await listPartitions(db)).map((range) => range.name);
}
