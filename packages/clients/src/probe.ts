import { withDeadline } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { dependencyFailure } from './auth-refusal.js';
import { createKafka } from './kafka.js';
import { registryEndpoint, type KafkaSecurityEnv, type RegistryAuthEnv } from '@tickertape/config';
import { kafkaSecurity, type KafkaSecurity } from './kafka-security.js';
import { createRedis } from './redis.js';

/**
 * Connects to MongoDB at `uri`, asks it something and disconnects, throwing the client's error:
 * `probeMongo` of @tickertape/store, which owns the driver.
 */
export type MongoProbe = (uri: string, logger: Logger, timeoutMs: number) => Promise<void>;

/** MongoDB is probed by the store's own probe, so a MONGODB_URI comes with one. */
type MongoTarget =
  | { MONGODB_URI?: undefined; probeMongo?: undefined }
  | { MONGODB_URI: string; probeMongo: MongoProbe };

export type ProbeTargets = MongoTarget & {
  KAFKA_BROKERS?: readonly string[];
  SCHEMA_REGISTRY_URL?: string;
  REDIS_URL?: string;
  /** The service's own TLS and SASL settings: without them a secured broker refuses the probe. */
  kafkaSecurity?: KafkaSecurity;
  /** Basic auth for the registry probe, as the service's registry client sends it. */
  registryAuth?: { username?: string; password?: string };
};

async function probeKafka(
  brokers: readonly string[],
  security: KafkaSecurity,
  logger: Logger,
  timeoutMs: number,
) {
  const admin = createKafka({
    ...security,
    brokers,
    clientId: 'tickertape-probe',
    logger: logger.child({}, { level: 'silent' }),
    connectionTimeoutMs: Math.min(timeoutMs, 3000),
    retry: { retries: 1, initialRetryTime: 200 },
  }).admin();
  try {
    await withDeadline(timeoutMs, 'kafka', async () => {
      await admin.connect();
      await admin.describeCluster();
    });
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

class RegistryAnswer extends Error {
  constructor(readonly status: number) {
    super(`GET /subjects answered ${status}`);
  }
}

async function probeRegistry(url: string, auth: ProbeTargets['registryAuth'], timeoutMs: number) {
  const headers: Record<string, string> = {};
  if (auth?.username !== undefined) {
    const credentials = `${auth.username}:${auth.password ?? ''}`;
    headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const response = await fetch(`${url.replace(/\/$/, '')}/subjects`, {
    headers,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new RegistryAnswer(response.status);
}

async function probeRedis(url: string, logger: Logger, timeoutMs: number) {
  const redis = createRedis({
    url,
    logger: logger.child({}, { level: 'silent' }),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    extra: { connectTimeout: timeoutMs, retryStrategy: () => null },
  });
  // A refused AUTH reaches only the 'error' event; connect() then just says the connection
  // closed. The first error event is the reason, so that is what the probe reports.
  let reason: unknown;
  redis.on('error', (err: unknown) => (reason ??= err));
  try {
    await withDeadline(timeoutMs, 'redis', async () => {
      await redis.connect();
      await redis.ping();
    });
  } catch (err) {
    throw reason ?? err;
  } finally {
    redis.disconnect();
  }
}

/**
 * Checks, in parallel, that every configured dependency answers. A service calls it at start so
 * a wrong or dead address stops it at once with the variable's name, instead of retrying
 * quietly forever. Refused credentials are a DependencyAuthError naming the variables that hold
 * them, not retriable.
 */
export async function probeDependencies(
  targets: ProbeTargets,
  logger: Logger,
  timeoutMs = 10_000,
): Promise<void> {
  const checks: Promise<void>[] = [];
  const check = (variable: string, address: string, work: () => Promise<void>) =>
    checks.push(
      work().catch((err: unknown) => {
        throw dependencyFailure(variable, address, err);
      }),
    );
  if (targets.KAFKA_BROKERS) {
    const brokers = targets.KAFKA_BROKERS;
    const security = targets.kafkaSecurity ?? {};
    check('KAFKA_BROKERS', brokers.join(','), () =>
      probeKafka(brokers, security, logger, timeoutMs),
    );
  }
  if (targets.SCHEMA_REGISTRY_URL) {
    const url = targets.SCHEMA_REGISTRY_URL;
    check('SCHEMA_REGISTRY_URL', url, () => probeRegistry(url, targets.registryAuth, timeoutMs));
  }
  if (targets.MONGODB_URI !== undefined) {
    const { MONGODB_URI: uri, probeMongo } = targets;
    check('MONGODB_URI', uri, () => probeMongo(uri, logger, timeoutMs));
  }
  if (targets.REDIS_URL) {
    const url = targets.REDIS_URL;
    check('REDIS_URL', url, () => probeRedis(url, logger, timeoutMs));
  }
  const results = await Promise.allSettled(checks);
  const failed = results.find(
    (result): result is PromiseRejectedResult => result.status === 'rejected',
  );
  if (failed) throw failed.reason;
}

/** What a service that reads ticks and writes rollups is configured with. */
export type PipelineEnv = KafkaSecurityEnv &
  RegistryAuthEnv & {
    KAFKA_BROKERS: string[];
    SCHEMA_REGISTRY_URL: string;
    MONGODB_URI: string;
    STARTUP_TIMEOUT_MS: number;
  };

/**
 * Probes Kafka, the registry and MongoDB as `env` names them (see `probeDependencies`), and
 * returns the Kafka security options and the registry endpoint it probed with.
 */
export async function probePipeline(
  env: PipelineEnv,
  logger: Logger,
  probeMongo: MongoProbe,
): Promise<{ security: KafkaSecurity; registryAt: ReturnType<typeof registryEndpoint> }> {
  const security = kafkaSecurity(env);
  const registryAt = registryEndpoint(env);
  await probeDependencies(
    {
      KAFKA_BROKERS: env.KAFKA_BROKERS,
      SCHEMA_REGISTRY_URL: env.SCHEMA_REGISTRY_URL,
      MONGODB_URI: env.MONGODB_URI,
      probeMongo,
      kafkaSecurity: security,
      registryAuth: registryAt,
    },
    logger,
    env.STARTUP_TIMEOUT_MS,
  );
  return { security, registryAt };
}
