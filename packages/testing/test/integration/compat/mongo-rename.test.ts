/**
 * Compatibility: what a rebuild's swap of a shadow collection for a live partition may use —
 * renameCollection (with and without dropTarget), $out and $merge. Real MongoDB (≥ 6.0) does all
 * of them properly. The stand-in answers them all correctly within one server run, but its
 * rename moves only the collection's data map, not its index maps (named after the collection
 * in mongo-java-server's H2 backend): a collection later created under the old name shares the
 * renamed one's `_id` index (pinned below), and after a server restart the renamed collections
 * come back with the pre-rename contents (seen on a private stand-in; a shared stack cannot be
 * restarted from a test). So @tickertape/store's swapShadow renames only on real MongoDB and
 * replaces documents one by one on the stand-in (docs/history.md).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MongoServerError, type Db, type Document } from 'mongodb';
import { TestStack } from '../../../src/index.js';
import { compatDatabase } from '../../support/database.js';

type Doc = Document & { _id: number };

const names = async (db: Db) =>
  (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
const ids = async (db: Db, name: string) =>
  (await db.collection<Doc>(name).find().sort({ _id: 1 }).toArray()).map((d) => d._id);
const indexNames = async (db: Db, name: string) =>
  ((await db.collection(name).listIndexes().toArray()) as { name: string }[])
    .map((i) => i.name)
    .sort();

describe('MongoDB renameCollection, $out and $merge', () => {
  let stack: TestStack;
  let standIn: boolean;

  beforeAll(async () => {
    stack = await TestStack.open('compat-mongo-rename');
    // mongod answers buildInfo with a gitVersion; mongo-java-server does not.
    standIn =
      (await compatDatabase(stack).client.db('admin').command({ buildInfo: 1 })).gitVersion ===
      undefined;
  });
  afterAll(() => stack.close());

  it('renames a collection with its documents and indexes; an existing target needs dropTarget', async () => {
    const db = compatDatabase(stack).db;
    await db.collection<Doc>('a').insertMany([{ _id: 1 }, { _id: 2 }]);
    await db.collection('a').createIndex({ start: 1 }, { name: 'start_1' });
    await db.collection<Doc>('b').insertOne({ _id: 9 });

    await db.renameCollection('a', 'c');
    expect(await names(db)).toEqual(['b', 'c']);
    expect(await ids(db, 'c')).toEqual([1, 2]);
    expect(await indexNames(db, 'c')).toEqual(['_id_', 'start_1']);

    const exists: unknown = await db.renameCollection('c', 'b').catch((e: unknown) => e);
    expect(exists).toBeInstanceOf(MongoServerError);
    expect((exists as MongoServerError).code).toBe(48); // NamespaceExists
    expect(await ids(db, 'b')).toEqual([9]);

    // dropTarget replaces the target in the same command.
    await db.renameCollection('c', 'b', { dropTarget: true });
    expect(await names(db)).toEqual(['b']);
    expect(await ids(db, 'b')).toEqual([1, 2]);
    // The renamed collection's _id index still refuses a duplicate.
    const duplicate: unknown = await db
      .collection<Doc>('b')
      .insertOne({ _id: 1 })
      .catch((e: unknown) => e);
    expect((duplicate as MongoServerError).code).toBe(11000);

    // dropTarget with no target is a plain rename.
    await db.renameCollection('b', 'd', { dropTarget: true });
    expect(await names(db)).toEqual(['d']);

    // A missing source is refused (MongoDB: NamespaceNotFound 26; the stand-in sends no code).
    const missing: unknown = await db.renameCollection('nothing', 'e').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(MongoServerError);
    expect((missing as MongoServerError).message).toMatch(/source namespace does not exist/);
    if (!standIn) expect((missing as MongoServerError).code).toBe(26);
  });

  it('copies with $out and merges with $merge (keepExisting never overwrites)', async () => {
    const db = compatDatabase(stack).db;
    await db.collection<Doc & { v: string }>('src').insertMany([
      { _id: 1, v: 'new' },
      { _id: 3, v: 'new' },
    ]);
    await db
      .collection('src')
      .aggregate([{ $match: {} }, { $out: 'copy' }])
      .toArray();
    expect(await ids(db, 'copy')).toEqual([1, 3]);

    await db.collection<Doc & { v: string }>('into').insertMany([
      { _id: 1, v: 'old' },
      { _id: 2, v: 'old' },
    ]);
    await db
      .collection('src')
      .aggregate([
        { $merge: { into: 'into', whenMatched: 'keepExisting', whenNotMatched: 'insert' } },
      ])
      .toArray();
    expect(await db.collection('into').find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 'old' },
      { _id: 2, v: 'old' },
      { _id: 3, v: 'new' },
    ]);
  });

  it('stand-in gap: a collection created under a name renamed away shares its _id index', async () => {
    const db = compatDatabase(stack).db;
    await db.collection<Doc>('live').insertOne({ _id: 1 });
    await db.renameCollection('live', 'replaced');
    await db.collection<Doc>('live').insertOne({ _id: 7 });
    if (standIn) {
      // Both collections now list both documents: the new `live` opened the index map the
      // renamed one still uses. Never create a collection under a name that was renamed away.
      expect(await ids(db, 'live')).toEqual([1, 7]);
      expect(await ids(db, 'replaced')).toEqual([1, 7]);
    } else {
      expect(await ids(db, 'live')).toEqual([7]);
      expect(await ids(db, 'replaced')).toEqual([1]);
    }
  });
});
