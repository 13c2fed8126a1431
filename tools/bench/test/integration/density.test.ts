import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bucketId, partitionOf, slotStart } from '@tickertape/buckets';
import { createLogger } from '@tickertape/logger';
import { openMongoStores, type MongoStores } from '@tickertape/store';
import { uniqueName } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import { MongoClient } from 'mongodb';
import { openDesignDatabases, type DesignDatabases } from '../../src/design-databases.js';
import { runDensityProbe, type DensityProbeResult } from '../../src/density.js';
import { DENSITY_PRESETS, densityStart, densityTickSpec } from '../../src/density-spec.js';
import { parseBenchEnv } from '../../src/env.js';
import { tickSet } from '../../src/tick-set.js';

// The density probe on the real database of the local stack, at the smoke sizes (a few thousand
// ticks): it writes through the store's RollupWriter, so the buckets it measures must be the
// ones the workers would write, and its ratio must come from what it measured.
describe('density probe on the real database', () => {
  const env = parseBenchEnv(process.env);
  const logger = createLogger({ name: 'density-test', level: 'warn' });
  const specs = DENSITY_PRESETS.smoke;
  const startMs = densityStart(Date.now(), specs);
  const names = new Map<number, string>();
  // The driver's own view, to check what the store wrote.
  let mongo: MongoClient;
  let stores: MongoStores;
  let designs: DesignDatabases;
  let result: DensityProbeResult;

  beforeAll(async () => {
    mongo = new MongoClient(env.MONGODB_URI, { appName: 'density-test' });
    await mongo.connect();
    stores = await openMongoStores({
      uri: env.MONGODB_URI,
      database: uniqueName('density'),
      appName: 'density-test',
      logger,
    });
    designs = await openDesignDatabases(env.MONGODB_URI, 'density-test', logger);
    result = await runDensityProbe({
      stores,
      designs,
      databaseName: (spec) => {
        const name = uniqueName(`density-${spec.perSecond}`.replace('.', '_'));
        names.set(spec.perSecond, name);
        return name;
      },
      specs,
      seed: 7,
      startMs,
      keep: true,
      logger,
    });
  }, 60_000);

  afterAll(async () => {
    for (const name of names.values()) await stores.dropDatabase(name);
    await designs.close();
    await stores.close();
    await mongo.close();
  });

  it('measures bytes at every density and takes C/B from the measured figures', () => {
    expect(result.densities.map((d) => d.perSecond)).toEqual(specs.map((s) => s.perSecond));
    for (const d of result.densities) {
      expect(d.ticks).toBeGreaterThan(0);
      // At one tick a minute the stack's defaults skip the minute level: the hour holds it all.
      const skipped = d.defaults === true && d.perSecond <= 1 / 60;
      expect(d.modes).toEqual(skipped ? { minute: 'skip' } : {});
      if (skipped) expect(d.levels.minute.documents).toBe(0);
      const written = skipped
        ? [d.levels.hour, d.perTick]
        : [d.levels.minute, d.levels.hour, d.perTick];
      for (const part of written) {
        expect(part.documents).toBeGreaterThan(0);
        expect(part.dataBytes).toBeGreaterThan(0);
        expect(part.indexBytes).toBeGreaterThan(0);
      }
      // C wrote one document per tick; each rollup level one operation per bucket per flush.
      expect(d.perTick.documents).toBe(d.ticks);
      for (const level of [d.levels.minute, d.levels.hour]) {
        expect(level.operations).toBe(level.buckets);
        expect(level.buckets).toBeGreaterThanOrEqual(level.documents);
      }
      const stored = (p: { dataBytes: number; indexBytes: number }) => p.dataBytes + p.indexBytes;
      const b = stored(d.levels.minute) + stored(d.levels.hour);
      expect(d.bytesPerTick.rollups.total).toBeCloseTo(b / d.ticks, 9);
      expect(d.cOverB).toBeCloseTo(stored(d.perTick) / b, 9);
    }
  });

  it("stores B's minute buckets in the minute partitions, one per series and minute (none where the defaults skip them)", async () => {
    for (const [i, spec] of specs.entries()) {
      const ids = new Set<string>();
      for (const tick of tickSet(densityTickSpec(spec, 7, startMs))) {
        const key = seriesKey(tick.metric, tick.tags);
        ids.add(bucketId('minute', key, slotStart('minute', tick.ts)));
      }
      const collection = mongo
        .db(names.get(spec.perSecond))
        .collection<{ _id: string }>(partitionOf('minute', startMs).name);
      const found = await collection.countDocuments({ _id: { $in: [...ids] } });
      // The defaults' density: its minute level skipped automatically, no minute bucket at all.
      const expected = spec.defaults ? 0 : ids.size;
      expect(found).toBe(expected);
      expect(result.densities[i]!.levels.minute.documents).toBe(expected);
      expect(await collection.countDocuments({ n: { $gt: 0 } })).toBe(expected);
    }
  });

  it('drops its databases unless told to keep them', async () => {
    let name = '';
    await runDensityProbe({
      stores,
      designs,
      databaseName: () => (name = uniqueName('density-drop')),
      specs: [{ perSecond: 1, stocks: 1, traffic: 1, durationMs: 60_000 }],
      seed: 7,
      startMs,
      keep: false,
      logger,
    });
    const { databases } = await mongo.db('admin').admin().listDatabases({ nameOnly: true });
    expect(databases.map((db) => db.name)).not.toContain(name);
  }, 20_000);
});
