import type { SegmentStore } from '@tickertape/segments';
import type { Db } from 'mongodb';
import type { StoreCapabilities } from '../port/capabilities.js';
import type { RollupStore } from '../port/rollup-store.js';
import { probeCapabilities } from './capabilities.js';
import { MongoRollupStore } from './mongo-rollup-store.js';
import { mongoSegmentStore } from './segments/index.js';

/**
 * The stores of a database a caller already holds a driver handle on: integration tests, which
 * look at what the store wrote with the driver itself. Services open theirs with `openMongoStores`.
 */
export function storesOf(
  db: Db,
  /** What the server can do, when the test knows better than a probe (a server that is gone). */
  known?: StoreCapabilities,
): Promise<{ rollups: RollupStore; segments: SegmentStore }> {
  let stores = opened.get(db);
  if (stores === undefined) {
    const capabilities =
      known !== undefined
        ? Promise.resolve(known)
        : probeCapabilities(db.client.db('admin'), db.readPreference.mode !== 'primary');
    stores = capabilities.then((capabilities) => ({
      rollups: new MongoRollupStore(db.client, db, capabilities),
      segments: mongoSegmentStore(db),
    }));
    opened.set(db, stores);
  }
  return stores;
}

// One pair of stores per handle: tests ask for them call after call.
const opened = new WeakMap<Db, Promise<{ rollups: RollupStore; segments: SegmentStore }>>();
