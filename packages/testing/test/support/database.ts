import { MongoClient, type Db } from 'mongodb';
import type { TestStack } from '../../src/index.js';

/**
 * The compatibility suite's own database per test: these tests pin what the driver and the
 * server do, so they hold the driver directly (the product's code asks @tickertape/store).
 */
export function compatDatabase(stack: TestStack): { db: Db; client: MongoClient } {
  const client = new MongoClient(stack.env.MONGODB_URI, {
    appName: `test-${stack.label}`,
    serverSelectionTimeoutMS: 10_000,
  });
  const db = client.db(stack.name('db'));
  stack.onClose(async () => {
    await db.dropDatabase();
    await client.close();
  });
  return { db, client };
}
