import type { Logger } from '@tickertape/logger';
import { MongoClient, type MongoClientOptions } from 'mongodb';

export interface MongoClientSettings {
  uri: string;
  appName: string;
  logger: Logger;
  /** How long a start waits for a server before giving up; the driver's default is 30 s. */
  serverSelectionTimeoutMs?: number;
  driverOptions?: MongoClientOptions;
}

/** A MongoClient that reports topology trouble to our logger. Call `connect()` to use it. */
export function createMongoClient(settings: MongoClientSettings): MongoClient {
  const client = new MongoClient(settings.uri, {
    appName: settings.appName,
    serverSelectionTimeoutMS: settings.serverSelectionTimeoutMs ?? 10_000,
    ...settings.driverOptions,
  });
  const log = settings.logger.child({ component: 'mongodb' });
  // Heartbeats repeat every half second while a server is down: log the change, not each beat.
  const failing = new Set<string>();
  client.on('serverHeartbeatFailed', (event) => {
    if (failing.has(event.connectionId)) return;
    failing.add(event.connectionId);
    log.warn(
      { address: event.connectionId, err: event.failure.message },
      'mongodb server unreachable',
    );
  });
  client.on('serverHeartbeatSucceeded', (event) => {
    if (failing.delete(event.connectionId))
      log.info({ address: event.connectionId }, 'mongodb server reachable again');
  });
  client.on('topologyClosed', () => log.debug('mongodb topology closed'));
  return client;
}
