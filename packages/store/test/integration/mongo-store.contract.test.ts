import { afterAll, beforeAll } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import { openMongoStores, type MongoStores } from '../../src/index.js';
import { describeRollupStoreContract } from '../contract/rollup-store.contract.js';

/**
 * The contract on the MongoDB store, against whatever MONGODB_URI points at: the stand-in in the
 * integration project, FerretDB in scripts/test.sh's second run. Each test (and each run of a
 * property) gets its own database on one connection, dropped after it.
 */
let stack: TestStack;
let stores: MongoStores;

beforeAll(async () => {
  stack = await TestStack.open('store-contract');
  stores = await openMongoStores({
    uri: stack.env.MONGODB_URI,
    database: stack.name('contract'),
    appName: 'store-contract',
    logger: stack.logger,
    // Every read carries maxTimeMS, as the API's do: a server that refuses it on some command
    // (FerretDB 1.24 on distinct) fails the contract. Generous: nothing here should meet it.
    readTimeoutMs: 60_000,
  });
});

afterAll(async () => {
  await stores.close();
  await stack.close();
});

describeRollupStoreContract(
  'mongo',
  async () => {
    const name = stack.name('contract');
    const { rollups } = await stores.database(name);
    return { store: rollups, close: () => stores.dropDatabase(name) };
  },
  // Each run writes a fresh database over the wire: fewer runs than in memory.
  { propertyRuns: 12 },
);
