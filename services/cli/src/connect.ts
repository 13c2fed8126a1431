import {
  createKafka,
  createMongoClient,
  createRegistry,
  dependencyFailure,
  kafkaSecurity,
  probeDependencies,
} from '@tickertape/clients';
import { registryEndpoint } from '@tickertape/config';
import type { Logger } from '@tickertape/logger';
import { topicPartitions } from '@tickertape/producer';
import { TickCodec, valueSubject } from '@tickertape/tick';
import type { Kafka } from 'kafkajs';
import type { MongoClient } from 'mongodb';
import { openMongoStores, type MongoStores } from '@tickertape/store';
import type { CliEnv } from './env.js';

/**
 * Checks the dependencies a command needs (so a wrong address stops it at once, naming the
 * variable) and returns a Kafka client.
 */
export async function openKafka(
  env: CliEnv,
  logger: Logger,
  clientId: string,
  needs: { registry: boolean },
): Promise<Kafka> {
  const security = kafkaSecurity(env);
  await probeDependencies(
    {
      KAFKA_BROKERS: env.KAFKA_BROKERS,
      kafkaSecurity: security,
      ...(needs.registry
        ? { SCHEMA_REGISTRY_URL: env.SCHEMA_REGISTRY_URL, registryAuth: registryEndpoint(env) }
        : {}),
    },
    logger,
    env.STARTUP_TIMEOUT_MS,
  );
  return createKafka({ ...security, brokers: env.KAFKA_BROKERS, clientId, logger });
}

/** The tick codec for `topic`: schema v2 under `<topic>-value`, registered if it is not yet. */
export function tickCodecFor(env: CliEnv, topic: string): Promise<TickCodec> {
  const registryAt = registryEndpoint(env);
  return TickCodec.register(createRegistry(registryAt), {
    registry: registryAt,
    version: 2,
    subject: valueSubject(topic),
  });
}

/**
 * For commands that publish to `topic`: checks the dependencies, that the topic exists (a
 * missing one stops the command instead of being auto-created), and registers the codec.
 */
export async function openTopicForPublishing(
  env: CliEnv,
  logger: Logger,
  clientId: string,
  topic: string,
): Promise<{ kafka: Kafka; codec: TickCodec }> {
  const kafka = await openKafka(env, logger, clientId, { registry: true });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await topicPartitions(admin, topic);
  } finally {
    await admin.disconnect();
  }
  return { kafka, codec: await tickCodecFor(env, topic) };
}

/**
 * A connected MongoDB client. A server that does not answer within STARTUP_TIMEOUT_MS stops the
 * command naming MONGODB_URI, as the other commands name KAFKA_BROKERS.
 */
export async function openMongo(
  env: CliEnv,
  logger: Logger,
  appName: string,
): Promise<MongoClient> {
  const mongo = createMongoClient({
    uri: env.MONGODB_URI,
    appName,
    logger,
    serverSelectionTimeoutMs: env.STARTUP_TIMEOUT_MS,
  });
  try {
    await mongo.connect();
  } catch (err) {
    await mongo.close().catch(() => undefined);
    throw dependencyFailure('MONGODB_URI', env.MONGODB_URI, err);
  }
  return mongo;
}

/**
 * The stores of `database` on one connected client. A server that does not answer within
 * STARTUP_TIMEOUT_MS stops the command naming MONGODB_URI, as `openMongo` does.
 */
export async function openStores(
  env: CliEnv,
  logger: Logger,
  appName: string,
  database: string,
): Promise<MongoStores> {
  try {
    return await openMongoStores({
      uri: env.MONGODB_URI,
      database,
      appName,
      logger,
      serverSelectionTimeoutMs: env.STARTUP_TIMEOUT_MS,
    });
  } catch (err) {
    throw dependencyFailure('MONGODB_URI', env.MONGODB_URI, err);
  }
}
