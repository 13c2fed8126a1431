/**
 * Compatibility: collection and index management for date-partitioned rollup collections
 * (rollup_minute_YYYYMMDD), and the aggregations a read path needs ($match/$group/$unwind,
 * $objectToArray for values keyed by second or minute). Locally the server is mongo-java-server,
 * a stand-in; where it differs from real MongoDB the test asserts what it does and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  BSON,
  MongoClient,
  MongoServerError,
  type Collection,
  type Db,
  type Document,
} from 'mongodb';
import { TestStack } from '../../../src/index.js';
import { compatDatabase } from '../../support/database.js';

type Doc = Document & { _id: string };
type IndexInfo = { name: string; key: Document; unique?: boolean };

const indexes = async (col: Collection<Doc>) => (await col.listIndexes().toArray()) as IndexInfo[];
const indexNames = async (col: Collection<Doc>) => (await indexes(col)).map((i) => i.name).sort();

/** The MongoServerError `work` rejects with. */
async function serverError(work: Promise<unknown>): Promise<MongoServerError> {
  const err: unknown = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MongoServerError);
  return err as MongoServerError;
}

describe('MongoDB collections, indexes and aggregation', () => {
  let stack: TestStack;
  let db: Db;

  beforeAll(async () => {
    stack = await TestStack.open('compat-mongo-coll');
    db = compatDatabase(stack).db;
  });
  afterAll(() => stack.close());

  const collectionNames = async (target: Db, filter: Document = {}) =>
    (await target.listCollections(filter, { nameOnly: true }).toArray()).map((c) => c.name).sort();

  it('creates a partition collection with compound and unique indexes, lists and drops them', async () => {
    const target = compatDatabase(stack).db;
    const col = await target.createCollection<Doc>('rollup_minute_20261121');
    expect(col.collectionName).toBe('rollup_minute_20261121');
    expect(await collectionNames(target)).toEqual(['rollup_minute_20261121']);
    // Creating it again is refused with NamespaceExists.
    const exists = await serverError(target.createCollection('rollup_minute_20261121'));
    expect(exists.code).toBe(48);

    expect(await col.createIndex({ seg: 1, t: -1 })).toBe('seg_1_t_-1');
    expect(await col.createIndex({ key: 1 }, { unique: true, name: 'key_unique' })).toBe(
      'key_unique',
    );
    // The same spec again is a no-op answering the name: safe to run at every start.
    expect(await col.createIndex({ seg: 1, t: -1 })).toBe('seg_1_t_-1');

    const listed = await indexes(col);
    expect(listed.map((i) => i.name).sort()).toEqual(['_id_', 'key_unique', 'seg_1_t_-1']);
    expect(listed.find((i) => i.name === 'seg_1_t_-1')).toMatchObject({ key: { seg: 1, t: -1 } });
    expect(listed.find((i) => i.name === 'key_unique')).toMatchObject({
      key: { key: 1 },
      unique: true,
    });
    expect(await col.indexExists(['seg_1_t_-1', 'key_unique'])).toBe(true);

    // The unique index is enforced, and the error names it.
    await col.insertOne({ _id: 'a', key: 'k1', seg: 's1', t: 1 });
    const dup: unknown = await col
      .insertOne({ _id: 'b', key: 'k1', seg: 's1', t: 2 })
      .catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(MongoServerError);
    expect((dup as MongoServerError).code).toBe(11000);
    expect((dup as MongoServerError).message).toContain('key_unique');
    // A unique index over existing duplicates cannot be built.
    await col.insertOne({ _id: 'c', key: 'k2', seg: 's1', t: 2 });
    const cannotBuild = await serverError(col.createIndex({ seg: 1 }, { unique: true }));
    expect(cannotBuild.code).toBe(11000);

    expect(await col.dropIndex('seg_1_t_-1')).toMatchObject({ ok: 1 });
    expect(await indexNames(col)).toEqual(['_id_', 'key_unique']);
    const noIndex = await serverError(col.dropIndex('seg_1_t_-1'));
    expect(noIndex.code).toBe(27); // IndexNotFound

    expect(await col.drop()).toBe(true);
    expect(await collectionNames(target)).toEqual([]);

    // stand-in gap: dropping a missing collection fails with errmsg "ns not found" but WITHOUT
    // code 26 (NamespaceNotFound), which MongoDB < 7.0 sends (7.0+ succeeds). The pipeline must not
    // depend on the code: check existence first, or treat the message as "already gone".
    const missing = await serverError(target.collection('rollup_minute_19990101').drop());
    expect(missing.message).toBe('ns not found');
    expect(missing.code).toBeUndefined();
  });

  it('stand-in gap: accepts an index on the same keys under a second name (MongoDB: IndexOptionsConflict 85)', async () => {
    const col = db.collection<Doc>('index_names');
    await col.insertOne({ _id: 'a', seg: 's1' });
    expect(await col.createIndex({ seg: 1 })).toBe('seg_1');
    // Real MongoDB refuses this ("Index already exists with a different name", code 85); the
    // stand-in builds a second index. The pipeline must not depend on the server catching a
    // renamed index definition: name indexes explicitly and compare with listIndexes itself.
    expect(await col.createIndex({ seg: 1 }, { name: 'seg_renamed' })).toBe('seg_renamed');
    expect(await indexNames(col)).toEqual(['_id_', 'seg_1', 'seg_renamed']);
    // Same name with other options is refused, as on MongoDB (IndexKeySpecsConflict).
    const conflict = await serverError(col.createIndex({ seg: 1 }, { unique: true }));
    expect(conflict.code).toBe(86);
    expect(await col.dropIndex('seg_renamed')).toMatchObject({ ok: 1 });
    expect(await col.drop()).toBe(true);
  });

  it('stand-in gap: listCollections ignores its filter, so partitions must be picked by name client-side', async () => {
    const target = compatDatabase(stack).db;
    for (const name of [
      'rollup_minute_20261121',
      'rollup_minute_20261122',
      'rollup_hour_20261121',
      'seg_meta',
    ]) {
      await target.createCollection(name);
    }
    const all = [
      'rollup_hour_20261121',
      'rollup_minute_20261121',
      'rollup_minute_20261122',
      'seg_meta',
    ];
    expect(await collectionNames(target)).toEqual(all);

    // Real MongoDB answers only the matching collections for each of these filters; the stand-in
    // answers every collection. The pipeline must not depend on server-side filtering.
    expect(await collectionNames(target, { name: 'rollup_minute_20261121' })).toEqual(all);
    expect(await collectionNames(target, { name: /^rollup_minute_/ })).toEqual(all);
    expect(
      await collectionNames(target, { name: { $regex: '^rollup_minute_2026112[12]$' } }),
    ).toEqual(all);

    // What works on both: list names, filter in the client.
    const partitions = (await collectionNames(target)).filter((n) =>
      /^rollup_minute_\d{8}$/.test(n),
    );
    expect(partitions).toEqual(['rollup_minute_20261121', 'rollup_minute_20261122']);
    // Dropping the oldest partition leaves the rest.
    expect(await target.dropCollection('rollup_minute_20261121')).toBe(true);
    expect(await collectionNames(target)).toEqual([
      'rollup_hour_20261121',
      'rollup_minute_20261122',
      'seg_meta',
    ]);
  });

  it('averages per segment with $match, $unwind and $group over per-minute arrays', async () => {
    const col = db.collection<Doc>('rollup_hour');
    await col.insertMany([
      {
        _id: 's1:05',
        seg: 's1',
        hour: 5,
        mins: [
          { m: 0, v: 10 },
          { m: 1, v: 20 },
        ],
      },
      { _id: 's1:06', seg: 's1', hour: 6, mins: [{ m: 0, v: 30 }] },
      { _id: 's1:04', seg: 's1', hour: 4, mins: [{ m: 0, v: 1000 }] }, // excluded by $match
      {
        _id: 's2:05',
        seg: 's2',
        hour: 5,
        mins: [
          { m: 5, v: 50 },
          { m: 6, v: 70 },
        ],
      },
      { _id: 's3:05', seg: 's3', hour: 5, mins: [] }, // $unwind drops a document with an empty array
    ]);
    const result = await col
      .aggregate([
        { $match: { hour: { $gte: 5 } } },
        { $unwind: '$mins' },
        {
          $group: {
            _id: '$seg',
            avgSpeed: { $avg: '$mins.v' },
            samples: { $sum: 1 },
            min: { $min: '$mins.v' },
            max: { $max: '$mins.v' },
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(result).toEqual([
      { _id: 's1', avgSpeed: 20, samples: 3, min: 10, max: 30 },
      { _id: 's2', avgSpeed: 60, samples: 2, min: 50, max: 70 },
    ]);

    // preserveNullAndEmptyArrays keeps s3; includeArrayIndex numbers the elements.
    const kept = await col
      .aggregate([
        { $match: { hour: 5 } },
        { $unwind: { path: '$mins', preserveNullAndEmptyArrays: true, includeArrayIndex: 'i' } },
        { $project: { _id: 0, seg: 1, i: 1 } },
        { $sort: { seg: 1, i: 1 } },
      ])
      .toArray();
    expect(kept).toEqual([
      { seg: 's1', i: 0 },
      { seg: 's1', i: 1 },
      { seg: 's2', i: 0 },
      { seg: 's2', i: 1 },
      { seg: 's3', i: null },
    ]);
  });

  it('unwinds values keyed by minute with $objectToArray (supported by the stand-in)', async () => {
    const col = db.collection<Doc>('rollup_hour_keyed');
    // The shape a bulk upsert with `$set: {'f.speed.v.<minute>': …}` produces: an object keyed by minute.
    await col.insertMany([
      { _id: 's1:05', seg: 's1', f: { speed: { v: { '0': 10, '1': 20 } } } },
      { _id: 's1:06', seg: 's1', f: { speed: { v: { '0': 30 } } } },
      { _id: 's2:05', seg: 's2', f: { speed: { v: { '5': 50, '59': 70 } } } },
    ]);
    const perSegment = await col
      .aggregate([
        { $project: { seg: 1, kv: { $objectToArray: '$f.speed.v' } } },
        { $unwind: '$kv' },
        { $group: { _id: '$seg', avgSpeed: { $avg: '$kv.v' }, minutes: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(perSegment).toEqual([
      { _id: 's1', avgSpeed: 20, minutes: 3 },
      { _id: 's2', avgSpeed: 60, minutes: 2 },
    ]);

    // Keys come back as strings in insertion order; $toInt turns them into minute numbers.
    const [one] = await col
      .aggregate([
        { $match: { _id: 's2:05' } },
        {
          $project: {
            _id: 0,
            raw: { $objectToArray: '$f.speed.v' },
            minutes: {
              $map: {
                input: { $objectToArray: '$f.speed.v' },
                as: 'e',
                in: { m: { $toInt: '$$e.k' }, v: '$$e.v' },
              },
            },
            back: { $arrayToObject: [[{ k: 'x', v: 1 }]] },
          },
        },
      ])
      .toArray();
    expect(one).toEqual({
      raw: [
        { k: '5', v: 50 },
        { k: '59', v: 70 },
      ],
      minutes: [
        { m: 5, v: 50 },
        { m: 59, v: 70 },
      ],
      back: { x: 1 },
    });
  });

  it('stand-in gap: rejects the $set aggregation stage and pipeline-style updates (MongoDB 4.2+)', async () => {
    const col = db.collection<Doc>('stages');
    await col.insertOne({ _id: 'a', n: 1 });
    // stand-in gap: `$set` (alias of $addFields, MongoDB 4.2) is an unknown stage — use $addFields.
    const setStage = await serverError(col.aggregate([{ $set: { m: 2 } }]).toArray());
    expect(setStage.code).toBe(40324);
    expect(await col.aggregate([{ $addFields: { m: { $add: ['$n', 1] } } }]).toArray()).toEqual([
      { _id: 'a', n: 1, m: 2 },
    ]);
    // stand-in gap: an update given as a pipeline (MongoDB 4.2) fails with an internal error (no
    // code). The pipeline must not depend on either: use classic update operators.
    const pipelineUpdate = await serverError(col.updateOne({ _id: 'a' }, [{ $set: { m: 3 } }]));
    expect(pipelineUpdate.code).toBeUndefined();
    expect(pipelineUpdate.message).toMatch(/cannot be cast/);
    expect(await col.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
  });

  it("collStats size is the documents' BSON bytes after inserts, updates and deletes", async () => {
    const col = db.collection<Doc>('rollup_minute_20261124');
    await col.insertMany([
      { _id: 'a', n: 1 },
      { _id: 'b', s: 'hello', f: { speed: { n: 2, sum: 120.5 } } },
      { _id: 'c', n: 3 },
    ]);
    await col.updateOne({ _id: 'a' }, { $inc: { n: 5, 'f.speed.n': 1 }, $max: { last: 9 } });
    await col.updateOne({ _id: 'b' }, { $unset: { s: '' } });
    await col.deleteOne({ _id: 'c' });
    const stored = await col.find().toArray();
    const bytes = stored.reduce((sum, doc) => sum + BSON.calculateObjectSize(doc), 0);
    expect(stored).toHaveLength(2);
    expect((await db.command({ collStats: col.collectionName })).size).toBe(bytes);
    await col.drop();
  });

  it('creates a new collection atomically when several clients race to create it and write first', async () => {
    // Two replicas' first flushes into a partition nobody created yet: each client creates it
    // (ensurePartition) and writes. Real MongoDB creates atomically (the loser gets
    // NamespaceExists, 48); the stand-in needs our launcher's serialised creation for it.
    const clients = await Promise.all(
      Array.from({ length: 4 }, () =>
        new MongoClient(stack.env.MONGODB_URI, { appName: 'compat-race' }).connect(),
      ),
    );
    try {
      const failures: unknown[] = [];
      for (let round = 0; round < 20; round++) {
        const name = `rollup_minute_2026${String(round).padStart(4, '0')}`;
        await Promise.all(
          clients.map(async (client, w) => {
            const raced = client.db(db.databaseName);
            await raced.createCollection(name).catch((err: unknown) => {
              if ((err as { code?: unknown }).code !== 48) failures.push(err);
            });
            await raced.collection<{ _id: string; n: number }>(name).bulkWrite(
              Array.from({ length: 20 }, (_, k) => ({
                updateOne: {
                  filter: { _id: `w${w}-${k}` },
                  update: { $inc: { n: 1 } },
                  upsert: true,
                },
              })),
              { ordered: false },
            );
          }),
        );
        expect(await db.collection(name).countDocuments()).toBe(clients.length * 20);
      }
      expect(failures).toEqual([]);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
