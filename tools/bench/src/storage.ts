import { BSON, type Db, type Document } from 'mongodb';

export interface CollectionStored {
  name: string;
  documents: number;
  dataBytes: number;
  indexBytes: number;
}

export interface Stored {
  collections: string[];
  /** The same figures per collection (e.g. minute vs hour partitions). */
  byCollection: CollectionStored[];
  documents: number;
  /** Sum of `collStats.size`: the BSON size of the documents, as the server reports it. */
  dataBytes: number;
  /**
   * Estimated: the BSON size of every index's key values, summed over the documents. Measured
   * here because mongo-java-server's `collStats.indexSize` counts entries, not bytes. A real
   * B-tree adds per-entry overhead and prefix compression on top; the ratio between designs
   * is what this is for.
   */
  indexBytes: number;
  /** Documents the index estimate read; fewer than `documents` means it was scaled up. */
  indexSampled: number;
}

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

/** What one design's database holds: data as collStats says, indexes as estimated above. */
export async function storedBytes(db: Db): Promise<Stored> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    // mongo-java-server ignores listCollections filters (docs/local-stack.md): filter here.
    .filter((name) => !name.startsWith('system.'))
    .sort();
  const stored: Stored = {
    collections: names,
    byCollection: [],
    documents: 0,
    dataBytes: 0,
    indexBytes: 0,
    indexSampled: 0,
  };
  for (const name of names) {
    const stats = await db.command({ collStats: name });
    const count = Number(stats.count);
    stored.documents += count;
    stored.dataBytes += Number(stats.size);
    const index = await indexEstimate(db, name, count);
    stored.indexBytes += index.bytes;
    stored.indexSampled += index.sampled;
    stored.byCollection.push({
      name,
      documents: count,
      dataBytes: Number(stats.size),
      indexBytes: index.bytes,
    });
  }
  return stored;
}
