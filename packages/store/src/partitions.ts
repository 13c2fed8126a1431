import type { PartitionRange } from '@tickertape/buckets';
import type { Db } from 'mongodb';

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
 * Names of the partition collections present. mongo-java-server ignores `listCollections`
 * filters, so the filtering happens here for every server alike.
 */
export async function listPartitionNames(db: Db): Promise<string[]> {
  const collections = await db.listCollections({}, { nameOnly: true }).toArray();
  return collections.map((c) => c.name).filter((name) => name.startsWith('rollup_'));
}
