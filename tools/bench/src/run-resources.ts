import { createKafka, createMongoClient, createRegistry, kafkaSecurity } from '@tickertape/clients';
import { registryEndpoint } from '@tickertape/config';
import type { Logger } from '@tickertape/logger';
import {
  registryAuthHeaders,
  TickCodec,
  valueSubject,
  type RegistryEndpoint,
} from '@tickertape/tick';
import type { Admin, Kafka } from 'kafkajs';
import type { Db, MongoClient } from 'mongodb';
import { randomBytes } from 'node:crypto';
import type { BenchEnv } from './env.js';

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
  mongo: MongoClient;
  names: ReturnType<typeof runNames>;
  /** The design's database, remembered for the cleanup. */
  database: (design: string) => Db;
  /** Drops a database now (unless the run keeps everything). */
  drop: (db: Db) => Promise<void>;
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
  const mongo = createMongoClient({ uri: env.MONGODB_URI, appName: 'tickertape-bench', logger });
  const admin: Admin = kafka.admin();
  const topics: string[] = [];
  const subjects: string[] = [];
  const databases = new Set<string>();
  await Promise.all([mongo.connect(), admin.connect()]);
  return {
    kafka,
    admin,
    mongo,
    names,
    database: (design) => {
      const name = names.database(design);
      databases.add(name);
      return mongo.db(name);
    },
    drop: async (db) => {
      if (keep) return;
      await db.dropDatabase();
      databases.delete(db.databaseName);
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
          for (const name of databases) await mongo.db(name).dropDatabase();
          if (topics.length > 0) await admin.deleteTopics({ topics });
          for (const subject of subjects) await deleteSubject(registryAt, subject);
        } else {
          logger.info({ topics, databases: [...databases], subjects }, 'kept for inspection');
        }
      } finally {
        await admin.disconnect();
        await mongo.close();
      }
    },
  };
}
