import { openMongoStores } from '@tickertape/store';
import { TestStack } from '@tickertape/testing';
import type { OpenedStore } from '../support/opened-store.js';
import { testDatabase } from '@tickertape/store/testing';

/** The Mongo store of a fresh database on the stack, dropped on close with the stack. */
export async function openTestStores(label: string): Promise<OpenedStore> {
  const stack = await TestStack.open(label);
  const stores = await openMongoStores({
    uri: stack.env.MONGODB_URI,
    database: testDatabase(stack).databaseName,
    appName: `test-${label}`,
    logger: stack.logger,
  });
  return {
    store: stores.rollups,
    async close() {
      await stores.close();
      await stack.close();
    },
  };
}
