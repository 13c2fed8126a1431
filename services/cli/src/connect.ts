import {
  createKafka,
  createRegistry,
  dependencyFailure,
  kafkaSecurity,
  probeDependencies,
} from '@tickertape/clients';
import { registryEndpoint } from '@tickertape/config';
import type { Logger } from '@tickertape/logger';
import { topicPartitions } from '@tickertape/producer';
import { openMongoStores, type MongoStores } from '@tickertape/store';
import { TickCodec, valueSubject } from '@tickertape/tick';
import type { Kafka } from 'kafkajs';
import { requireStack, type CliEnv } from './env.js';
import { producerClocksProblem } from './producer-clocks.js';

/**
 * Checks the dependencies a command needs (so a wrong address stops it at once, naming the
 * variable) and returns a Kafka client.
 */
export async function openKafka(
  given: CliEnv,
  logger: Logger,
  clientId: string,
  needs: { registry: boolean },
): Promise<Kafka> {
  const env = requireStack(given, 'KAFKA_BROKERS');
  const registry = needs.registry ? requireStack(given, 'SCHEMA_REGISTRY_URL') : undefined;
  const security = kafkaSecurity(env);
  await probeDependencies(
    {
      KAFKA_BROKERS: env.KAFKA_BROKERS,
      kafkaSecurity: security,
      ...(registry === undefined
        ? {}
        : {
            SCHEMA_REGISTRY_URL: registry.SCHEMA_REGISTRY_URL,
            registryAuth: registryEndpoint(registry),
          }),
    },
    logger,
    env.STARTUP_TIMEOUT_MS,
  );
  return createKafka({ ...security, brokers: env.KAFKA_BROKERS, clientId, logger });
}

/** The tick codec for `topic`: schema v2 under `<topic>-value`, registered if it is not yet. */
export function tickCodecFor(env: CliEnv, topic: string): Promise<TickCodec> {
  const registryAt = registryEndpoint(requireStack(env, 'SCHEMA_REGISTRY_URL'));
  return TickCodec.register(createRegistry(registryAt), {
    registry: registryAt,
    version: 2,
    subject: valueSubject(topic),
  });
}

/**
 * For commands that publish to `topic`: checks the dependencies, that the topic exists (a
 * missing one stops the command instead of being auto-created), and registers the codec. The
 * topic's timestamp type comes back as a problem to warn of when it is not LogAppendTime.
 */
export async function openTopicForPublishing(
  env: CliEnv,
  logger: Logger,
  clientId: string,
  topic: string,
): Promise<{ kafka: Kafka; codec: TickCodec; clocksProblem: string | undefined }> {
  const kafka = await openKafka(env, logger, clientId, { registry: true });
  const admin = kafka.admin();
  await admin.connect();
  let clocksProblem: string | undefined;
  try {
    await topicPartitions(admin, topic);
    clocksProblem = await producerClocksProblem(admin, env, topic);
  } finally {
    await admin.disconnect();
  }
  return { kafka, codec: await tickCodecFor(env, topic), clocksProblem };
}

/**
 * The stores of `database` (rollups and segments) on one connection. A server that does not
 * answer within STARTUP_TIMEOUT_MS stops the command naming MONGODB_URI, as the other commands
 * name KAFKA_BROKERS.
 */
export async function openStores(
  given: CliEnv,
  logger: Logger,
  appName: string,
  database: string,
): Promise<MongoStores> {
  const env = requireStack(given, 'MONGODB_URI');
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
