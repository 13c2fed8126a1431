import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '@tickertape/testing';
import { MongoClient } from 'mongodb';
import { openMongoStores, probeMongo } from '../../src/index.js';
import { StoreStack } from '../support/store-stack.js';

describe('openMongoStores on the real database', () => {
  let stack: StoreStack;

  beforeAll(async () => {
    stack = await StoreStack.open('open-stores');
  });
  afterAll(() => stack.close());

  it('probes the server once: its name, whether it renames safely, whether reads are causal', async () => {
    const { store, db } = await stack.fresh();
    const info = await db.admin().command({ buildInfo: 1 });
    const { server, renamesSafely, causalReads } = store.capabilities;
    expect(server).toEqual(
      info.gitVersion === undefined
        ? `mongo-java-server, reporting MongoDB ${String(info.version)}`
        : expect.stringMatching(/^(mongodb|ferretdb) /),
    );
    // The stand-in renames data without its indexes, FerretDB cannot rename onto a target.
    expect(renamesSafely).toBe(server.startsWith('mongodb '));
    // Reads from the primary see every acknowledged write: no sessions to hand out.
    expect(causalReads).toBe(false);
    expect(store.beginReads()).toBeUndefined();
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('keeps databases on one connection apart, and drops one', async () => {
    const [a, b] = [await stack.fresh(), await stack.fresh()];
    await a.store.advanceWatermarks({ hour: Date.parse('2026-11-21T10:00:00Z') }, Date.now());
    expect((await a.store.readWatermarks()).finalBefore).toEqual({
      hour: Date.parse('2026-11-21T10:00:00Z'),
    });
    expect(await b.store.readWatermarks()).toEqual({
      finalBefore: {},
      generation: { minute: 0, hour: 0, day: 0 },
    });
    await stack.stores.dropDatabase(a.db.databaseName);
    expect((await a.store.readWatermarks()).finalBefore).toEqual({});
  });

  it('drops a database and nothing of one whose name begins with its name', async () => {
    // The bench names a run's databases `ttb-<run>-<design>`: `…-d` beside `…-density10`. The
    // stand-in's drop of `…-d` once emptied `…-density10` under it, whose own drop then refused
    // ("Expected [StandInUniqueIndex[name=_id_], …] to be empty") and left it on disk.
    const { db } = await stack.fresh();
    const [shorter, longer] = [db.databaseName, `${db.databaseName}0`];
    // Gone by the end of the test unless it failed; the stores' connection is closed by then.
    stack.stack.onClose(async () => {
      const client = await new MongoClient(stack.stack.env.MONGODB_URI).connect();
      await client
        .db(longer)
        .dropDatabase()
        .finally(() => client.close());
    });
    const hour = Date.parse('2026-11-21T10:00:00Z');
    for (const name of [shorter, longer]) {
      const { rollups } = await stack.stores.database(name);
      await rollups.advanceWatermarks({ hour }, Date.now());
    }
    const databases = async () =>
      ((await db.admin().listDatabases({ nameOnly: true })).databases ?? []).map((d) => d.name);
    expect(await databases()).toEqual(expect.arrayContaining([shorter, longer]));

    await stack.stores.dropDatabase(shorter);
    const { rollups: kept } = await stack.stores.database(longer);
    expect((await kept.readWatermarks()).finalBefore).toEqual({ hour });

    await stack.stores.dropDatabase(longer);
    expect(await databases()).not.toContain(longer);
    expect(await databases()).not.toContain(shorter);
  });

  it('rejects at once when nothing answers, as the start probe does', async () => {
    const uri = `mongodb://127.0.0.1:${await freePort()}`;
    const logger = stack.stack.logger;
    const started = Date.now();
    await expect(
      openMongoStores({
        uri,
        database: 'x',
        appName: 'test',
        logger,
        serverSelectionTimeoutMs: 500,
      }),
    ).rejects.toThrow();
    await expect(probeMongo(uri, logger, 500)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
