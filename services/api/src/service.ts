import {
  createKafka,
  createMongoClient,
  kafkaSecurity,
  probeDependencies,
} from '@tickertape/clients';
import type { Logger } from '@tickertape/logger';
import { RollupReader } from '@tickertape/query';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { buildApp, type ApiApp } from './app.js';
import type { ApiEnv } from './env.js';
import { kafkaLagSource } from './lag.js';

export interface ApiHandle {
  app: ApiApp;
  port: number;
  stop(): Promise<void>;
}

/**
 * Connects MongoDB (required: a wrong address stops the start, naming MONGODB_URI) and a Kafka
 * admin for lag (optional at any time: it connects on first use), then listens.
 */
export async function startApi(env: ApiEnv, logger: Logger): Promise<ApiHandle> {
  await probeDependencies({ MONGODB_URI: env.MONGODB_URI }, logger, env.STARTUP_TIMEOUT_MS);
  const mongo = createMongoClient({ uri: env.MONGODB_URI, appName: 'tickertape-api', logger });
  await mongo.connect();
  const db = mongo.db(env.MONGODB_DATABASE);
  const reader = new RollupReader(db, {
    levels: env.LEVELS,
    limits: {
      maxDocuments: env.MAX_DOCUMENTS,
      maxSeries: env.MAX_SERIES,
      maxPoints: env.MAX_POINTS,
    },
  });
  const kafka = createKafka({
    ...kafkaSecurity(env),
    brokers: env.KAFKA_BROKERS,
    clientId: 'tickertape-api',
    logger,
    // Lag answers within two seconds or not at all (see kafkaLagSource): fail fast, retry little.
    connectionTimeoutMs: 1000,
    retry: { retries: 1, initialRetryTime: 200 },
  });
  const lag = kafkaLagSource({
    admin: kafka.admin(),
    topic: env.TOPIC,
    groupPrefix: env.GROUP_PREFIX,
    logger,
  });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const app = buildApp({
    reader,
    tokens: env.API_TOKENS,
    logger,
    registry,
    lag: lag.lag,
    health: () => db.command({ ping: 1 }),
  });
  await app.listen({ port: env.HTTP_PORT, host: env.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : env.HTTP_PORT;
  logger.info(
    {
      host: env.HOST,
      port,
      levels: reader.levels,
      topic: env.TOPIC,
      tokens: env.API_TOKENS.length,
    },
    'api started',
  );
  return {
    app,
    port,
    async stop() {
      // In-flight requests finish; new connections are refused from here on.
      await app.close();
      await lag.close();
      await mongo.close();
      logger.info('api stopped');
    },
  };
}
