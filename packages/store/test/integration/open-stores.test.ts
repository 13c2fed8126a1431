import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '@tickertape/testing';
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
