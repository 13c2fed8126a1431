import { TestStack } from '@tickertape/testing';
import type { Db } from 'mongodb';
import { openMongoStores, type MongoStores, type RollupStore } from '../../src/index.js';
import { testDatabase } from '../../src/mongo/test-database.js';

/** A store on a database of its own, and the same database as the driver sees it. */
export interface StoreOnDb {
  store: RollupStore;
  /** For what only the Mongo implementation has to answer for: indexes, raw documents, the doc's pipelines. */
  db: Db;
}

/**
 * The real stack as the store's tests use it: one `openMongoStores` connection, and a fresh,
 * uniquely named database per `fresh()` (dropped by `close()`, through TestStack).
 */
export class StoreStack {
  private constructor(
    readonly stack: TestStack,
    readonly stores: MongoStores,
  ) {}

  static async open(label: string): Promise<StoreStack> {
    const stack = await TestStack.open(label);
    try {
      const stores = await openMongoStores({
        uri: stack.env.MONGODB_URI,
        database: stack.name('db'),
        appName: `test-${label}`,
        logger: stack.logger,
      });
      return new StoreStack(stack, stores);
    } catch (err) {
      await stack.close();
      throw err;
    }
  }

  async fresh(): Promise<StoreOnDb> {
    const db = testDatabase(this.stack);
    const { rollups } = await this.stores.database(db.databaseName);
    return { store: rollups, db };
  }

  async close(): Promise<void> {
    await this.stores.close();
    await this.stack.close();
  }
}
