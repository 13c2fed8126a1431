import { createKafka, createRegistry, kafkaSecurity } from '@tickertape/clients';
import { registryEndpoint } from '@tickertape/config';
import type { Logger } from '@tickertape/logger';
import { openMongoStores, type MongoStores, type RollupStore } from '@tickertape/store';
import {
  registryAuthHeaders,
  TickCodec,
  valueSubject,
  type RegistryEndpoint,
} from '@tickertape/tick';
import type { Admin, Kafka } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { openDesignDatabases, type DesignDb, type DesignDatabases } from './design-databases.js';
import type { BenchEnv } from './env.js';

/**
 * One design's database, seen two ways: as our store (pipelines B and F write it, every design's
 * sizes are measured through it) and through the driver, for the naive designs that store ticks
 * their own way.
 */
export interface BenchDatabase {
  name: string;
  rollups: RollupStore;
  designDb: DesignDb;
}

/** The stores and the designs' handle on the database `name` (it need not exist yet). */
export async function benchDatabase(
  stores: MongoStores,
  designs: DesignDatabases,
  name: string,
): Promise<BenchDatabase> {
  const { rollups } = await stores.database(name);
  return { name, rollups, designDb: designs.db(name) };
}

async function deleteSubject(registry: RegistryEndpoint, subject: string): Promise<void> {
  const base = `${registry.url}/subjects/${encodeURIComponent(subject)}`;
  const headers = registryAuthHeaders(registry);
  // Confluent semantics: a soft delete, then a permanent one.
  for (const url of [base, `${base}?permanent=true`])
    await fetch(url, { method: 'DELETE', headers });
}

/** Names of one run: unique, so runs never share a topic, group or database. */
function runNames() {
  const id = `ttb-${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  return {
    topic: `${id}-ticks`,
    dlqTopic: `${id}-dlq`,
    liveTopic: `${id}-live`,
    group: (design: string) => `${id}-${design}`,
    database: (design: string) => `${id}-${design}`,
  };
}

/**
 * What one benchmark run makes and must clean up: its topics, schema subjects and databases, all
 * named for the run, and the clients they are made with.
 */
export interface RunResources {
  kafka: Kafka;
  admin: Admin;
  stores: MongoStores;
  designs: DesignDatabases;
  names: ReturnType<typeof runNames>;
  /** The design's database, remembered for the cleanup. */
  database: (design: string) => Promise<BenchDatabase>;
  /** The design's database's name only, remembered for the cleanup (the density probe's). */
  databaseName: (design: string) => string;
  /** Drops a database now (unless the run keeps everything). */
  drop: (db: BenchDatabase) => Promise<void>;
  registerTopic: (topic: string, partitions: number) => Promise<void>;
  registerCodec: (topic: string) => Promise<TickCodec>;
  /** Drops everything the run made (unless kept) and closes the clients. */
  close: () => Promise<void>;
}

export async function openRunResources(
  env: BenchEnv,
  logger: Logger,
  keep: boolean,
): Promise<RunResources> {
  const names = runNames();
  const kafka = createKafka({
    ...kafkaSecurity(env),
    brokers: env.KAFKA_BROKERS,
    clientId: 'tickertape-bench',
    logger,
  });
  const registryAt = registryEndpoint(env);
  const registry = createRegistry(registryAt);
  const stores = await openMongoStores({
    uri: env.MONGODB_URI,
    database: names.database('bench'),
    appName: 'tickertape-bench',
    logger,
  });
  const designs = await openDesignDatabases(env.MONGODB_URI, 'tickertape-bench-designs', logger);
  const admin: Admin = kafka.admin();
  const topics: string[] = [];
  const subjects: string[] = [];
  const databases = new Set<string>();
  const databaseName = (design: string): string => {
    const name = names.database(design);
    databases.add(name);
    return name;
  };
  await admin.connect();
  return {
    kafka,
    admin,
    stores,
    designs,
    names,
    database: (design) => benchDatabase(stores, designs, databaseName(design)),
    databaseName,
    drop: async (db) => {
      if (keep) return;
      await stores.dropDatabase(db.name);
      databases.delete(db.name);
    },
    registerTopic: async (topic, partitions) => {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic, numPartitions: partitions }],
      });
      topics.push(topic);
    },
    registerCodec: async (topic) => {
      const subject = valueSubject(topic);
      subjects.push(subject);
      return TickCodec.register(registry, { registry: registryAt, version: 2, subject });
    },
    close: async () => {
      try {
        if (!keep) {
          for (const name of databases) await stores.dropDatabase(name);
          if (topics.length > 0) await admin.deleteTopics({ topics });
          for (const subject of subjects) await deleteSubject(registryAt, subject);
        } else {
          logger.info({ topics, databases: [...databases], subjects }, 'kept for inspection');
        }
      } finally {
        await admin.disconnect();
        await designs.close();
        await stores.close();
      }
    },
  };
}
