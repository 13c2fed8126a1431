import { openMongoStores, type MongoStores } from '@tickertape/store';
import type { TestStack } from '@tickertape/testing';

/**
 * The stores of a fresh database of the stack's (dropped by `stack.close()`), on their own
 * client: close them before the stack.
 */
export async function openTestStores(stack: TestStack): Promise<MongoStores> {
  return openMongoStores({
    uri: stack.env.MONGODB_URI,
    database: stack.database().databaseName,
    appName: `test-${stack.label}`,
    logger: stack.logger,
  });
}
