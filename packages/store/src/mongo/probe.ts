import type { Logger } from '@tickertape/logger';
import { createMongoClient } from './client.js';

/**
 * Connects, pings and closes: what a start runs (beside Kafka's and Redis' probes) so a wrong or
 * dead MONGODB_URI stops it at once. Throws the driver's error; the caller names the variable.
 */
export async function probeMongo(uri: string, logger: Logger, timeoutMs: number): Promise<void> {
  const client = createMongoClient({
    uri,
    appName: 'tickertape-probe',
    logger,
    serverSelectionTimeoutMs: timeoutMs,
  });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close().catch(() => undefined);
  }
}
