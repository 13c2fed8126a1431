import { createKafka, createRedis, kafkaSecurity, probeDependencies } from '@tickertape/clients';
import { withDeadline } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { startOpsServer } from '@tickertape/ops';
import { openMongoStores, probeMongo } from '@tickertape/store';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { boardHandler } from './board.js';
import type { SchedulerEnv } from './env.js';
import { JOBS, JOB_NAMES, type JobContext, type JobDefinition } from './jobs.js';
import { sampleGroupLag } from './group-lag.js';
import { createSchedulerMetrics, type SchedulerMetrics } from './metrics.js';

export interface SchedulerHandle {
  port: number;
  queue: Queue;
  metrics: SchedulerMetrics;
  stop(): Promise<void>;
}

export interface SchedulerHooks {
  /** The clock jobs read; tests pass a fake one. Defaults to the wall clock. */
  now?: () => number;
  /** Called after each job finishes, with its BullMQ id (tests count runs per tick). */
  onJobDone?: (job: Job, result: Record<string, unknown>) => void;
}

/**
 * Registers one BullMQ job scheduler per catalog entry and runs a worker for the queue. Any
 * number of replicas may run: the schedulers are upserts of the same ids, and BullMQ hands each
 * produced job to exactly one worker.
 */
export async function startScheduler(
  env: SchedulerEnv,
  logger: Logger,
  hooks: SchedulerHooks = {},
): Promise<SchedulerHandle> {
  const security = kafkaSecurity(env);
  await probeDependencies(
    {
      KAFKA_BROKERS: env.KAFKA_BROKERS,
      kafkaSecurity: security,
      MONGODB_URI: env.MONGODB_URI,
      probeMongo,
      REDIS_URL: env.REDIS_URL,
    },
    logger,
    env.STARTUP_TIMEOUT_MS,
  );
  const kafka = createKafka({
    ...security,
    brokers: env.KAFKA_BROKERS,
    clientId: 'tickertape-scheduler',
    logger,
  }).admin();
  await kafka.connect();
  const stores = await openMongoStores({
    uri: env.MONGODB_URI,
    database: env.MONGODB_DATABASE,
    appName: 'tickertape-scheduler',
    logger,
  });
  const metrics = createSchedulerMetrics();
  const queueConnection = createRedis({ url: env.REDIS_URL, logger, maxRetriesPerRequest: null });
  const workerConnection = createRedis({ url: env.REDIS_URL, logger, maxRetriesPerRequest: null });
  const queue = new Queue(env.SCHEDULER_QUEUE, {
    connection: queueConnection,
    prefix: env.BULLMQ_PREFIX,
  });
  const ctx: JobContext = {
    rollups: stores.rollups,
    segments: stores.segments,
    kafka,
    now: hooks.now ?? Date.now,
    env,
    logger,
    metrics,
  };

  for (const name of JOB_NAMES) {
    const job: JobDefinition = JOBS[name];
    await queue.upsertJobScheduler(
      name,
      { every: job.every(env) },
      {
        name,
        data: {},
        opts: {
          attempts: job.attempts,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: 1000,
          removeOnFail: 1000,
        },
      },
    );
  }

  const worker = new Worker(
    env.SCHEDULER_QUEUE,
    async (job: Job) => {
      const definition = (JOBS as Record<string, JobDefinition | undefined>)[job.name];
      if (!definition) throw new UnrecoverableError(`unknown job ${job.name}`);
      const payload = definition.payload.safeParse(job.data);
      if (!payload.success)
        throw new UnrecoverableError(`bad payload for ${job.name}: ${payload.error.message}`);
      const stopTimer = metrics.jobSeconds.startTimer({ job_name: job.name });
      try {
        const result = await withDeadline(env.JOB_TIMEOUT_MS, `job ${job.name}`, () =>
          definition.run(ctx, payload.data),
        );
        metrics.jobsRun.inc({ job_name: job.name, outcome: 'ok' });
        logger.debug({ job: job.name, id: job.id, result }, 'job done');
        hooks.onJobDone?.(job, result);
        return result;
      } catch (err) {
        metrics.jobsRun.inc({ job_name: job.name, outcome: 'failed' });
        logger.error({ job: job.name, id: job.id, err }, 'job failed');
        throw err;
      } finally {
        stopTimer();
      }
    },
    { connection: workerConnection, prefix: env.BULLMQ_PREFIX, concurrency: 1 },
  );
  worker.on('error', (err) => logger.error({ err }, 'scheduler worker error'));
  await worker.waitUntilReady();

  const lag = sampleGroupLag({
    admin: kafka,
    topic: env.TOPIC,
    groups: { ...env.FINALITY_GROUPS, segments: env.SEGMENT_GROUP },
    everyMs: env.GROUP_LAG_EVERY_MS,
    metrics,
    logger,
  });

  let healthy = true;
  worker.on('closed', () => (healthy = false));
  const http = await startOpsServer(
    env.HTTP_PORT,
    metrics.registry,
    () => healthy && worker.isRunning(),
    boardHandler(queue),
  );
  logger.info(
    { queue: env.SCHEDULER_QUEUE, jobs: JOB_NAMES, port: http.port },
    'scheduler started',
  );

  return {
    port: http.port,
    queue,
    metrics,
    async stop() {
      // Lets a running job finish; a job cut off by a kill is retried by the next replica.
      await worker.close();
      await lag.stop();
      await queue.close();
      await kafka.disconnect();
      await stores.close();
      queueConnection.disconnect();
      workerConnection.disconnect();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      logger.info('scheduler stopped');
    },
  };
}
