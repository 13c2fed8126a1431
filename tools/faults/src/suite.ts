import { createKafka, createRegistry, kafkaSecurity } from '@tickertape/clients';
import { openMongoStores } from '@tickertape/store';
import { registryEndpoint } from '@tickertape/config';
import { describeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import {
  createProfile,
  ensureTopics,
  runLoad,
  SeededRandom,
  STOCK_METRIC,
  TickProducer,
  TRAFFIC_METRIC,
  type LoadSummary,
} from '@tickertape/producer';
import { uniqueName } from '@tickertape/testing';
import { TickCodec, valueSubject } from '@tickertape/tick';
import { verify, type VerifyReport } from '@tickertape/verify';
import { Partitioners, type Kafka } from 'kafkajs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { STORES } from '@tickertape/topology';
import { deadLettersBySource, sourceKey } from './dead-letters.js';
import type { FaultsEnv } from './env.js';
import { Fleet } from './fleet.js';
import { injectBadInputs } from './inject.js';
import { persist } from './persist.js';
import { groupOf, spawnProcess, WORKER_LIMITS, type Process, type RunNames } from './processes.js';
import { passed, totalLoad, type FaultRunReport } from './report.js';
import { countByKind, faultSchedule, PROFILES, type FaultProfile } from './schedule.js';
import { ClusterFaultError } from './cluster/broker-faults.js';
import { clusterMeans, faults } from './fault-actions.js';

export type { FaultRunReport } from './report.js';

const LOAD_PROFILES = [
  { name: 'stocks', series: 20, rate: (p: FaultProfile) => p.stocksPerSec },
  { name: 'traffic', series: 100, rate: (p: FaultProfile) => p.trafficPerSec },
] as const;

/**
 * Starts the stock and traffic load of a profile, each through its own producer: resolves once
 * both are connected, with `finished` settling when every tick is sent and the producers closed.
 */
async function startLoad(
  kafka: Kafka,
  codec: TickCodec,
  topic: string,
  profile: FaultProfile,
  seed: number,
): Promise<{ finished: Promise<LoadSummary[]> }> {
  const runs = await Promise.all(
    LOAD_PROFILES.map(async (load, i) => {
      const producer = await TickProducer.connect(kafka, codec, {
        topic,
        source: `tickertape-faults/${load.name}`,
      });
      return { producer, load, seed: seed + i };
    }),
  );
  const finished = Promise.all(
    runs.map(async ({ producer, load, seed: loadSeed }) => {
      try {
        return await runLoad(
          producer,
          createProfile(load.name, { series: load.series, seed: loadSeed }),
          { ratePerSec: load.rate(profile), durationMs: profile.loadMs },
        );
      } finally {
        await producer.close();
      }
    }),
  );
  return { finished };
}

/** Sketches for both metrics and VWAP's parts, in the run's policy before a worker reads it. */
async function keepSketches(env: FaultsEnv, run: RunNames, logger: Logger): Promise<void> {
  const stores = await openMongoStores({
    uri: env.MONGODB_URI,
    database: run.database,
    appName: 'tickertape-faults',
    logger,
  });
  try {
    const now = Date.now();
    await stores.rollups.changeMetricPolicy(
      { kind: 'sketch', metrics: [STOCK_METRIC, TRAFFIC_METRIC], on: true },
      now,
    );
    await stores.rollups.changeMetricPolicy(
      { kind: 'weight', metric: STOCK_METRIC, field: 'price', by: 'volume' },
      now,
    );
  } finally {
    await stores.close();
  }
}

/**
 * One fault run: a fresh topic, DLQ and database; the four kinds of workers and the scheduler as
 * supervised processes; the stock and traffic load; the profile's faults at their times; then
 * the workers catch up, the ground-truth checker compares every bucket and segment with the
 * topic, and every bad record is looked up in the DLQ.
 */
export async function runFaults(env: FaultsEnv, logger: Logger): Promise<FaultRunReport> {
  const profile = PROFILES[env.FAULT_PROFILE];
  const random = new SeededRandom(env.FAULT_SEED);
  const pick = (below: number) => random.int(0, below - 1);
  const began = Date.now();
  const topic = uniqueName(`faults-${profile.name}`);
  const run: RunNames = {
    topic,
    dlqTopic: `${topic}-dlq`,
    database: uniqueName('faults'),
    maxLatenessMs: profile.maxLatenessMs,
  };
  const kafka = createKafka({
    ...kafkaSecurity(env),
    brokers: env.KAFKA_BROKERS,
    clientId: 'tickertape-faults',
    logger,
    // The broker restarts mid-run: keep trying for longer than it is away.
    retry: { retries: 12, initialRetryTime: 300, maxRetryTime: 5000 },
  });
  const admin = kafka.admin();
  await admin.connect();
  // A cluster just started: every broker in the metadata before a topic asks for three replicas.
  if (profile.stack === 'cluster')
    await persist(
      60_000,
      'waiting for every broker',
      async () => {
        const { brokers } = await admin.describeCluster();
        if (brokers.length < env.TT_KAFKA_BROKERS)
          throw new ClusterFaultError(`${brokers.length} of ${env.TT_KAFKA_BROKERS} brokers known`);
      },
      logger,
    );
  await ensureTopics(admin, { topic, partitions: 4, dlqTopic: run.dlqTopic, dlqPartitions: 1 });
  await admin.disconnect();
  const registry = registryEndpoint(env);
  const codec = await TickCodec.register(createRegistry(registry), {
    registry,
    version: 2,
    subject: valueSubject(topic),
  });

  if (env.FAULT_SKETCHES) await keepSketches(env, run, logger);

  const means = await clusterMeans(env, kafka, topic, profile, logger);
  const fleet = new Fleet<Process>(
    (name) =>
      spawnProcess(env, run, name, means?.clockedStores.has(name) ? means.clockEnv : undefined),
    logger,
    pick,
    join(env.FAULT_OUT_DIR, `faults-${profile.name}-logs`, topic),
  );
  for (const name of [...STORES, 'scheduler'] as const) await fleet.scale(name, 1);

  const events = faultSchedule(profile, pick).filter(
    (event) => env.FAULT_RESTART_STACK || event.kind !== 'restart',
  );
  const done = countByKind([]);
  const faultErrors: string[] = [];
  const injector = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    idempotent: true,
  });
  await injector.connect();
  const actions = faults(
    env,
    run,
    kafka,
    fleet,
    (round) => injectBadInputs(injector, topic, codec.schemaId, Date.now(), round),
    means,
    logger,
  );

  const load = await startLoad(kafka, codec, topic, profile, env.FAULT_SEED);
  const loadStart = Date.now();
  const carried = events.map(async (event) => {
    await delay(Math.max(0, loadStart + event.atMs - Date.now()));
    logger.info({ fault: event }, 'fault');
    try {
      await actions.carryOut(event, done[event.kind]);
      done[event.kind] += 1;
    } catch (err) {
      faultErrors.push(`${event.kind} at ${event.atMs} ms: ${describeError(err)}`);
      logger.error({ err, fault: event }, 'fault could not be carried out');
    }
  });
  const summaries = await load.finished;
  await Promise.all(carried);
  await injector.disconnect();
  await fleet.settle();
  // The end state an operator would restore: one worker per store, every one running.
  for (const store of STORES) await fleet.scale(store, 1);

  const stores = await openMongoStores({
    uri: env.MONGODB_URI,
    database: run.database,
    appName: 'tickertape-faults',
    logger,
  });
  let checked: VerifyReport;
  let letters: Map<string, string[]>;
  try {
    checked = await verify({
      kafka,
      stores,
      decode: (value) => codec.decode(value),
      topic,
      dlqTopic: run.dlqTopic,
      targets: STORES.map((store) => ({ store, groupId: groupOf(run, store) })),
      bounds: {
        maxLatenessMs: run.maxLatenessMs,
        maxFutureMs: WORKER_LIMITS.maxFutureMs,
      },
      segments: { maxPoints: WORKER_LIMITS.segmentMaxPoints, writeOnChange: new Set() },
      waitMs: env.FAULT_CATCH_UP_MS,
      readTimeoutMs: 120_000,
      logger,
    });
    letters = await deadLettersBySource(kafka, run.dlqTopic, topic);
  } finally {
    await stores.close();
    await fleet.close();
  }
  const report: Omit<FaultRunReport, 'passed'> = {
    profile: profile.name,
    seed: env.FAULT_SEED,
    sketches: env.FAULT_SKETCHES,
    topic,
    database: run.database,
    startedAt: new Date(began).toISOString(),
    elapsedMs: Date.now() - began,
    load: totalLoad(summaries),
    planned: countByKind(events),
    faults: done,
    faultErrors,
    restarts: actions.restarts,
    rebuilds: actions.rebuilds,
    ...(means === undefined ? {} : { cluster: actions.cluster }),
    processes: fleet.counters,
    badInputs: actions.injected.map((bad) => ({
      ...bad,
      deadLettered: [...new Set(letters.get(sourceKey(bad.partition, bad.offset)) ?? [])],
    })),
    verify: {
      tally: checked.tally,
      stores: checked.stores,
      differences: checked.differences.length,
      sample: checked.differences.slice(0, 20),
    },
  };
  return { ...report, passed: passed(report) };
}
