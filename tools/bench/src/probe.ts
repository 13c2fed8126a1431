import type { Db } from 'mongodb';

export interface ServerProbe {
  /** Documents in the probe collection: as many as B's rollup collections held. */
  documents: number;
  /** Update (upsert) cost per operation with a filter of `_id` alone… */
  idOnlyMsPerOp: number;
  /** …and with the exactly-once guard beside `_id` (docs/exactly-once.md). */
  guardedMsPerOp: number;
}

const OPS = 200;

/** A small minute-bucket look-alike: what the guard's filter and the update touch. */
interface ProbeDocument {
  _id: string;
  n: number;
  f: { x: { n: number; sum: number; v: Record<string, { t: number; o: number; v: number }> } };
  ap: Record<string, number>;
}

/**
 * Where B's time goes on this server: the same upserts, in unordered bulks of 200 as the
 * workers send them, once filtered by `_id` alone and once with the guard
 * `{_id, 'ap.0': {$not: {$gte: n}}}`, on a collection as large as B's. mongod serves both through
 * the `_id` index; a server that cannot use the index for the guarded filter scans the whole
 * collection for every operation, which this shows as a large ratio.
 */
export async function probeServer(db: Db, documents: number): Promise<ServerProbe> {
  const collection = db.collection<ProbeDocument>('probe');
  const seconds = Object.fromEntries(
    Array.from({ length: 30 }, (_, i) => [String(i), { t: i, o: i, v: i }]),
  );
  for (let i = 0; i < documents; i += 5000) {
    await collection.insertMany(
      Array.from({ length: Math.min(5000, documents - i) }, (_, k) => ({
        _id: `probe|s=${i + k}:202601010000`,
        n: 1,
        f: { x: { n: 1, sum: 1, v: seconds } },
        ap: { '0': 1 },
      })),
    );
  }
  const timeOps = async (guarded: boolean, round: number): Promise<number> => {
    const step = Math.max(1, Math.floor(documents / OPS));
    const started = performance.now();
    await collection.bulkWrite(
      Array.from({ length: OPS }, (_, i) => ({
        updateOne: {
          filter: {
            _id: `probe|s=${(i * step) % documents}:202601010000`,
            ...(guarded ? { 'ap.0': { $not: { $gte: 10 + round } } } : {}),
          },
          update: { $inc: { n: 1, 'f.x.n': 1 }, $max: { 'ap.0': 10 + round } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    return (performance.now() - started) / OPS;
  };
  const idOnlyMsPerOp = await timeOps(false, 0);
  const guardedMsPerOp = await timeOps(true, 1);
  await collection.drop();
  return { documents, idOnlyMsPerOp, guardedMsPerOp };
}
