import type { Logger } from '@tickertape/logger';
import type { SegmentStore } from '@tickertape/segments';
import type { MongoClient, MongoClientOptions } from 'mongodb';
import type { StoreCapabilities } from '../port/capabilities.js';
import type { RollupStore } from '../port/rollup-store.js';
import { probeCapabilities } from './capabilities.js';
import { createMongoClient } from './client.js';
import { MongoRollupStore } from './mongo-rollup-store.js';
import { mongoSegmentStore } from './segments/index.js';

export type ReadPreferenceMode =
  'primary' | 'primaryPreferred' | 'secondary' | 'secondaryPreferred' | 'nearest';

/** One database command as the driver saw it (`onCommand`). */
export interface CommandEvent {
  name: string;
  durationMs: number;
  failed: boolean;
  /** Documents a read returned in this round trip (a cursor's batch); absent for other commands. */
  documents?: number;
}

export interface MongoStoreOptions {
  uri: string;
  database: string;
  appName: string;
  logger: Logger;
  /** How long opening (and every later call) waits for a server; default 10 s. */
  serverSelectionTimeoutMs?: number;
  /**
   * Where reads go; away from the primary, every query reads causally after the watermarks it
   * judges finality by (`capabilities.causalReads`, docs/scaling.md). Default `primary`.
   */
  readPreference?: ReadPreferenceMode;
  /** Tag sets in order of preference (away from the primary only); `{}` matches any member. */
  readPreferenceTags?: Record<string, string>[];
  /** A secondary further behind the primary than this is not read (the driver's floor: 90). */
  maxStalenessSeconds?: number;
  /**
   * Acknowledged writes are majority-committed and journaled. A worker commits Kafka offsets once
   * a flush is acknowledged, so for it an acknowledgement must mean durable: on a replica set a
   * w:1 write can be rolled back by a failover after the commit (docs/exactly-once.md).
   */
  durableWrites?: boolean;
  /** Called for every command the client sends (what a read costs the database, in metrics). */
  onCommand?: (event: CommandEvent) => void;
  /** Called as each command is sent, with its name (tests: what the database was asked, when). */
  onCommandStarted?: (name: string) => void;
  /**
   * `maxTimeMS` on every bucket read: the server stops a read past it, which then rejects with a
   * ReadTimeoutError. None by default (the API sets API_READ_TIMEOUT_MS).
   */
  readTimeoutMs?: number;
}

export interface MongoStores {
  rollups: RollupStore;
  segments: SegmentStore;
  /** The stores of another database on the same connection (tests, tools spanning databases). */
  database(name: string): Promise<{ rollups: RollupStore; segments: SegmentStore }>;
  dropDatabase(name: string): Promise<void>;
  close(): Promise<void>;
}

function driverOptionsOf(options: MongoStoreOptions): MongoClientOptions {
  const mode = options.readPreference ?? 'primary';
  return {
    ...(mode === 'primary'
      ? {}
      : {
          readPreference: mode,
          ...(options.readPreferenceTags !== undefined && options.readPreferenceTags.length > 0
            ? { readPreferenceTags: options.readPreferenceTags }
            : {}),
          ...(options.maxStalenessSeconds === undefined
            ? {}
            : { maxStalenessSeconds: options.maxStalenessSeconds }),
        }),
    ...(options.durableWrites === true ? { writeConcern: { w: 'majority', journal: true } } : {}),
    ...(options.onCommand === undefined && options.onCommandStarted === undefined
      ? {}
      : { monitorCommands: true }),
  };
}

function reportCommands(client: MongoClient, onCommand: (event: CommandEvent) => void): void {
  client.on('commandSucceeded', (event) => {
    const cursor = (event.reply as { cursor?: { firstBatch?: unknown[]; nextBatch?: unknown[] } })
      .cursor;
    const batch = cursor?.firstBatch ?? cursor?.nextBatch;
    onCommand({
      name: event.commandName,
      durationMs: event.duration,
      failed: false,
      ...(batch ? { documents: batch.length } : {}),
    });
  });
  client.on('commandFailed', (event) =>
    onCommand({ name: event.commandName, durationMs: event.duration, failed: true }),
  );
}

/**
 * Connects one client (its topology trouble logged, not each heartbeat), probes what the server
 * can do once, and hands out the stores of `options.database` — and of any other database on the
 * same connection. A server that does not answer within `serverSelectionTimeoutMs` rejects with
 * the driver's error (the caller names the variable that pointed there); the client is closed.
 */
export async function openMongoStores(options: MongoStoreOptions): Promise<MongoStores> {
  const client = createMongoClient({
    uri: options.uri,
    appName: options.appName,
    logger: options.logger,
    ...(options.serverSelectionTimeoutMs === undefined
      ? {}
      : { serverSelectionTimeoutMs: options.serverSelectionTimeoutMs }),
    driverOptions: driverOptionsOf(options),
  });
  if (options.onCommand !== undefined) reportCommands(client, options.onCommand);
  const { onCommandStarted } = options;
  if (onCommandStarted !== undefined)
    client.on('commandStarted', (event) => onCommandStarted(event.commandName));
  let capabilities: StoreCapabilities;
  try {
    await client.connect();
    capabilities = await probeCapabilities(
      client.db('admin'),
      (options.readPreference ?? 'primary') !== 'primary',
    );
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
  const storesOf = (name: string): { rollups: RollupStore; segments: SegmentStore } => ({
    rollups: new MongoRollupStore(
      client,
      client.db(name),
      capabilities,
      options.readTimeoutMs === undefined ? {} : { readTimeoutMs: options.readTimeoutMs },
    ),
    segments: mongoSegmentStore(client.db(name)),
  });
  return {
    ...storesOf(options.database),
    database: (name) => Promise.resolve(storesOf(name)),
    async dropDatabase(name) {
      await client.db(name).dropDatabase();
    },
    close: () => client.close(),
  };
}
