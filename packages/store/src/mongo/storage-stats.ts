import { BSON, type Db, type Document } from 'mongodb';
import type { CollectionStorage } from '../port/storage-stats.js';
import { HISTORY_RUNS_COLLECTION } from './history-runs.js';
import { LEVEL_POLICY_COLLECTION } from './level-policy.js';
import { bucketCollectionNames } from './partitions.js';
import { SHADOW_SWAPS_COLLECTION } from './shadow.js';
import { WATERMARKS_COLLECTION } from './watermarks.js';

const STORE_COLLECTIONS: ReadonlySet<string> = new Set([
  HISTORY_RUNS_COLLECTION,
  LEVEL_POLICY_COLLECTION,
  SHADOW_SWAPS_COLLECTION,
  WATERMARKS_COLLECTION,
]);

/** Most documents read per collection for the index estimate; beyond, the sample is scaled. */
export const INDEX_SAMPLE = 20_000;

function valueAt(doc: Document, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null) return null;
    value = (value as Document)[part];
  }
  return value ?? null;
}

async function indexEstimate(
  db: Db,
  name: string,
  count: number,
): Promise<{ bytes: number; sampled: number }> {
  const indexes = await db.collection(name).listIndexes().toArray();
  const keys = indexes.map((index) => Object.keys((index as { key: Document }).key));
  const projection = Object.fromEntries([...new Set(keys.flat())].map((path) => [path, 1]));
  let bytes = 0;
  let sampled = 0;
  for await (const doc of db.collection(name).find({}, { projection }).limit(INDEX_SAMPLE)) {
    sampled += 1;
    for (const paths of keys) {
      bytes += BSON.calculateObjectSize(
        Object.fromEntries(paths.map((path) => [path, valueAt(doc, path)])),
      );
    }
  }
  return { bytes: sampled === 0 ? 0 : (bytes * count) / sampled, sampled };
}

/** Every collection of `db`: data as collStats says, indexes as estimated above. */
export async function storageStats(db: Db): Promise<CollectionStorage[]> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    // mongo-java-server ignores listCollections filters (docs/local-stack.md): filter here.
    .filter((name) => !name.startsWith('system.'))
    .sort();
  const buckets = new Set(await bucketCollectionNames(db));
  const stats: CollectionStorage[] = [];
  for (const name of names) {
    const collStats = await db.command({ collStats: name });
    const documents = Number(collStats.count);
    const index = await indexEstimate(db, name, documents);
    stats.push({
      name,
      kind: buckets.has(name) ? 'buckets' : STORE_COLLECTIONS.has(name) ? 'store' : 'other',
      documents,
      dataBytes: Number(collStats.size),
      indexBytes: index.bytes,
      indexSampled: index.sampled,
    });
  }
  return stats;
}
