import {
  createKafka,
  createRegistry,
  isTransientKafkaError,
  probePipeline,
} from '@tickertape/clients';
import type { Logger } from '@tickertape/logger';
import { startOpsServer } from '@tickertape/ops';
import { SegmentWriter } from '@tickertape/segments';
import { openMongoStores, probeMongo } from '@tickertape/store';
import { TickCodec, valueSubject } from '@tickertape/tick';
import { groupIdOf } from '@tickertape/topology';
import { Partitioners } from 'kafkajs';
import { freshnessBudgetMs, type WorkerEnv } from './env.js';
import { createWorkerMetrics } from './metrics.js';
import { RollupConsumer } from './rollup-consumer.js';
import { rollupSink, segmentSink } from './sinks.js';
import { warnOnProducerClocks } from './timestamp-type-check.js';

export interface WorkerHandle {
  /** Port of /metrics and /health. */
  port: number;
  metrics: ReturnType<typeof createWorkerMetrics>;
  /** Stops consuming (an unfinished flush is abandoned uncommitted) and closes every client. */
  stop(): Promise<void>;
}

export interface WorkerHooks {
  clock?: () => number;
  /** What FAULT_CRASH_AFTER_WRITES does when it fires; main.ts passes a SIGKILL of itself. */
  crash?: () => void;
}

export async function startWorker(
  env: WorkerEnv,
  logger: Logger,
  hooks: WorkerHooks = {},
): Promise<WorkerHandle> {
  const { security, registryAt } = await probePipeline(env, logger, probeMongo);
  const level = env.ROLLUP_LEVEL;
  const name = groupIdOf(level);
  const groupId = env.GROUP_ID ?? name;
  const kafka = createKafka({ ...security, brokers: env.KAFKA_BROKERS, clientId: name, logger });
  const registry = createRegistry(registryAt);
  const consumer = kafka.consumer({
    groupId,
    sessionTimeout: env.KAFKA_SESSION_TIMEOUT_MS,
    heartbeatInterval: Math.min(3000, Math.floor(env.KAFKA_SESSION_TIMEOUT_MS / 3)),
    minBytes: env.FLUSH_MIN_BYTES,
    maxWaitTimeInMs: env.FLUSH_MAX_WAIT_MS,
    maxBytesPerPartition: Math.max(env.FLUSH_MIN_BYTES * 16, 1024 * 1024),
  });
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  });
  const metrics = createWorkerMetrics(level);
  // Both series from the start, so an alert's increase() sees the first crash.
  for (const restart of ['true', 'false']) metrics.consumerCrashes.inc({ restart }, 0);

  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    joined = true;
    metrics.groupJoins.inc();
    logger.info({ groupId, assignment: event.payload.memberAssignment }, 'joined consumer group');
  });
  consumer.on(consumer.events.CRASH, (event) => {
    joined = false;
    const { error, restart } = event.payload;
    metrics.consumerCrashes.inc({ restart: String(restart) });
    // A coordinator loading or a leader election passes by itself: KafkaJS restarts the consumer.
    const level = restart && isTransientKafkaError(error) ? 'debug' : 'error';
    logger[level]({ err: error, restart }, 'consumer crashed');
  });

  const [stores] = await Promise.all([
    openMongoStores({
      uri: env.MONGODB_URI,
      database: env.MONGODB_DATABASE,
      appName: name,
      logger,
      // Offsets are committed once a flush is acknowledged, so the acknowledgement must mean
      // durable: on a replica set a w:1 write can be rolled back by a failover after the commit,
      // and its ticks would be gone. Majority + journal survives that (docs/exactly-once.md).
      durableWrites: true,
    }),
    consumer.connect(),
    producer.connect(),
  ]);
  const codec = await TickCodec.register(registry, {
    registry: registryAt,
    version: env.TICK_SCHEMA_VERSION,
    subject: valueSubject(env.TOPIC),
  });
  await warnOnProducerClocks(kafka, env.TOPIC, env.KAFKA_BROKERS, logger);
  const sink =
    level === 'segments'
      ? segmentSink(
          new SegmentWriter(stores.segments, {
            maxPoints: env.SEGMENT_MAX_POINTS,
            writeOnlyOnChange: env.SEGMENT_WRITE_ON_CHANGE,
          }),
          metrics,
          logger,
        )
      : rollupSink(stores.rollups.writer(level), metrics);
  const crashAfter = env.FAULT_CRASH_AFTER_WRITES;
  const rollups = new RollupConsumer(
    { consumer, producer, codec, sink, metrics, logger, clock: hooks.clock ?? Date.now },
    {
      topic: env.TOPIC,
      dlqTopic: env.DLQ_TOPIC,
      // DLQ_OWNER_LEVEL is a rollup level: segment workers count bad records and never send them.
      ownsDeadLetters: env.DLQ_OWNER_LEVEL === level,
      flushMaxTicks: env.FLUSH_MAX_TICKS,
      budgetMs: freshnessBudgetMs(env),
      maxHeldBytes: env.HELD_MAX_BYTES,
      partitionsConcurrently: env.PARTITIONS_CONCURRENTLY,
      maxLatenessMs: env.MAX_LATENESS_MS,
      maxFutureMs: env.MAX_FUTURE_MS,
      afterWrite:
        crashAfter === undefined
          ? undefined
          : (written) => {
              if (written < crashAfter) return;
              logger.warn(
                { written },
                'fault injection: crashing after the write, before the commit',
              );
              (hooks.crash ?? (() => process.kill(process.pid, 'SIGKILL')))();
            },
    },
  );
  const http = await startOpsServer(env.HTTP_PORT, metrics.registry, () => joined);
  await rollups.start();
  logger.info(
    {
      level,
      groupId,
      topic: env.TOPIC,
      port: http.port,
      freshnessBudgetMs: freshnessBudgetMs(env),
    },
    'rollup worker started',
  );

  return {
    port: http.port,
    metrics,
    async stop() {
      // What is held is written and committed while this worker still owns its partitions;
      // then kafkajs lets the running eachBatch finish (it sees isRunning() false and stops
      // before committing anything it has not written).
      await rollups.drain();
      await consumer.disconnect();
      await producer.disconnect();
      await stores.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      logger.info('rollup worker stopped');
    },
  };
}
