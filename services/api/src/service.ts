import { createKafka, kafkaSecurity, probeDependencies } from '@tickertape/clients';
import type { Logger } from '@tickertape/logger';
import { FinalBucketCache, RollupReader } from '@tickertape/query';
import { openMongoStores, probeMongo, type MongoStoreOptions } from '@tickertape/store';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { buildApp, type ApiApp } from './app.js';
import type { ApiEnv } from './env.js';
import { kafkaLagSource } from './lag.js';
import { cacheObserver, countDatabaseCommand, createApiMetrics } from './metrics.js';
import { promBoundsOf } from './prometheus/bounds.js';

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
  await probeDependencies(
    { MONGODB_URI: env.MONGODB_URI, probeMongo },
    logger,
    env.STARTUP_TIMEOUT_MS,
  );
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metrics = createApiMetrics(registry);
  const stores = await openMongoStores({
    uri: env.MONGODB_URI,
    database: env.MONGODB_DATABASE,
    appName: 'tickertape-api',
    logger,
    ...readPreferenceOptions(env),
    // Every bucket read carries maxTimeMS: a backstop the server enforces (MongoDB, FerretDB).
    readTimeoutMs: env.API_READ_TIMEOUT_MS,
    // What each read costs the database, in /metrics (tickertape_api_database_*).
    ...(env.COUNT_DATABASE_COMMANDS
      ? { onCommand: (event) => countDatabaseCommand(metrics, event) }
      : {}),
  });
  const buckets: FinalBucketCache | undefined =
    env.BUCKET_CACHE_BYTES > 0
      ? new FinalBucketCache({
          maxBytes: env.BUCKET_CACHE_BYTES,
          observe: cacheObserver(metrics, 'buckets', () => buckets?.bytes ?? 0),
        })
      : undefined;
  const reader = new RollupReader(stores, {
    levels: env.LEVELS,
    limits: {
      maxDocuments: env.MAX_DOCUMENTS,
      maxSeries: env.MAX_SERIES,
      maxPoints: env.MAX_POINTS,
    },
    finalityRefreshMs: env.FINALITY_REFRESH_MS,
    ...(buckets ? { cache: buckets } : {}),
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
  const app = buildApp({
    reader,
    tokens: env.API_TOKENS,
    logger,
    registry,
    metrics,
    caching: {
      answerBytes: env.ANSWER_CACHE_BYTES,
      openReuseMs: env.ANSWER_REUSE_OPEN_MS,
      scope: env.CACHE_SCOPE,
      finalMaxAgeS: env.FINAL_MAX_AGE_S,
      budgetsMs: env.FRESHNESS_BUDGETS,
    },
    promBounds: promBoundsOf(env),
    readTimeoutMs: env.API_READ_TIMEOUT_MS,
    lag: lag.lag,
    health: () => stores.rollups.ping(),
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
      scopedTokens: env.API_TOKENS.filter((t) => !t.scope.all).length,
      readPreference: env.READ_PREFERENCE,
      bucketCacheBytes: env.BUCKET_CACHE_BYTES,
      answerCacheBytes: env.ANSWER_CACHE_BYTES,
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
      await stores.close();
      logger.info('api stopped');
    },
  };
}

/** Where reads go, from READ_PREFERENCE, READ_PREFERENCE_TAGS and MAX_STALENESS_SECONDS. */
export function readPreferenceOptions(
  env: ApiEnv,
): Pick<MongoStoreOptions, 'readPreference' | 'readPreferenceTags' | 'maxStalenessSeconds'> {
  if (env.READ_PREFERENCE === 'primary') return {};
  return {
    readPreference: env.READ_PREFERENCE,
    ...(env.READ_PREFERENCE_TAGS.length > 0
      ? { readPreferenceTags: env.READ_PREFERENCE_TAGS }
      : {}),
    ...(env.MAX_STALENESS_SECONDS === undefined
      ? {}
      : { maxStalenessSeconds: env.MAX_STALENESS_SECONDS }),
  };
}
