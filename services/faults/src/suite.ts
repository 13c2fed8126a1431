import {
  createKafka,
  createMongoClient,
  createRegistry,
  kafkaSecurity,
  readTopic,
  rewindGroup,
} from '@tickertape/clients';
import { kafkaSecurityVars, registryAuthVars, registryEndpoint } from '@tickertape/config';
import { describeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import {
  createProfile,
  ensureTopics,
  headerText,
  runLoad,
  SeededRandom,
  TickProducer,
  DLQ_HEADERS,
  type LoadSummary,
} from '@tickertape/producer';
import { spawnService, uniqueName } from '@tickertape/testing';
import { TickCodec, valueSubject } from '@tickertape/tick';
import { verify, type VerifyReport } from '@tickertape/verify';
import { Partitioners, type Kafka } from 'kafkajs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import type { FaultsEnv } from './env.js';
import { Fleet } from './fleet.js';
import { injectBadInputs, type Injected } from './inject.js';
import {
  countByKind,
  faultSchedule,
  PROFILES,
  STORES,
  type FaultEvent,
  type FaultKind,
  type Store,
} from './schedule.js';
import { restartPart } from './stack-control.js';

const serviceDir = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url));

type Process = Store | 'scheduler';

export interface FaultRunReport {
  profile: string;
  seed: number;
  topic: string;
  database: string;
  startedAt: string;
  elapsedMs: number;
  load: Pick<LoadSummary, 'generated' | 'acknowledged' | 'failed'>;
  /** Faults carried out, by kind (planned ones that failed are in `faultErrors`). */
  faults: Record<FaultKind, number>;
  faultErrors: string[];
  /** Stack restarts, with how long each part took to answer again. */
  restarts: { part: string; ms: number }[];
  processes: Fleet<Process>['counters'];
  badInputs: (Injected & { deadLettered: string[] })[];
  verify: Pick<VerifyReport, 'tally' | 'stores'> & {
    differences: number;
    sample: VerifyReport['differences'];
  };
  passed: boolean;
}

function workerEnv(
  env: FaultsEnv,
  run: { topic: string; dlqTopic: string; database: string },
  store: Store,
) {
  return {
    ...env.inherited,
    ...kafkaSecurityVars(env),
    ...registryAuthVars(env),
    KAFKA_BROKERS: env.KAFKA_BROKERS.join(','),
    SCHEMA_REGISTRY_URL: env.SCHEMA_REGISTRY_URL,
    MONGODB_URI: env.MONGODB_URI,
    MONGODB_DATABASE: run.database,
    ROLLUP_LEVEL: store,
    TOPIC: run.topic,
    DLQ_TOPIC: run.dlqTopic,
    GROUP_ID: `${run.topic}-${store}`,
    HTTP_PORT: '0',
    FLUSH_MAX_WAIT_MS: '200',
    FLUSH_MAX_TICKS: '1000',
    // A SIGKILLed member's partitions move on after this; the broker's minimum.
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    SEGMENT_MAX_POINTS: '100',
    // Each flush's offsets and each group join land in the run's logs: enough to replay a
    // difference the checker finds.
    LOG_LEVEL: 'debug',
  };
}

function schedulerEnv(env: FaultsEnv, run: { topic: string; database: string }) {
  return {
    ...env.inherited,
    MONGODB_URI: env.MONGODB_URI,
    REDIS_URL: env.REDIS_URL,
    MONGODB_DATABASE: run.database,
    SCHEDULER_QUEUE: `${run.topic}-scheduler`,
    SHELL_LEVELS: 'minute,hour,day',
    SHELLS_EVERY_MS: '5000',
    FINALIZE_EVERY_MS: '5000',
    HTTP_PORT: '0',
    LOG_LEVEL: 'warn',
  };
}

/** Retries `work` until it succeeds or `ms` passed: faults make single tries fail. */
async function persist<T>(
  ms: number,
  what: string,
  work: () => Promise<T>,
  logger: Logger,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await work();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      logger.debug({ err: describeError(err) }, `${what} failed; trying again`);
      await delay(1000);
    }
  }
}

async function readDeadLetters(kafka: Kafka, dlqTopic: string): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  await readTopic(
    kafka,
    dlqTopic,
    (_partition, messages) => {
      for (const message of messages) {
        const key = `${headerText(message.headers, DLQ_HEADERS.partition)}/${headerText(message.headers, DLQ_HEADERS.offset)}`;
        found.set(key, [
          ...(found.get(key) ?? []),
          headerText(message.headers, DLQ_HEADERS.reason) ?? '',
        ]);
      }
    },
    { timeoutMs: 60_000, groupPrefix: 'tickertape-faults-dlq' },
  );
  return found;
}

/**
 * One fault run: a fresh topic, DLQ and database; the four kinds of workers and the scheduler as
 * processes; the stock and traffic load; the profile's faults at their times; then the workers
 * catch up and the ground-truth checker compares every bucket and segment with the topic.
 */
export async function runFaults(env: FaultsEnv, logger: Logger): Promise<FaultRunReport> {
  const profile = PROFILES[env.FAULT_PROFILE];
  const random = new SeededRandom(env.FAULT_SEED);
  const pick = (below: number) => random.int(0, below - 1);
  const began = Date.now();
  const run = {
    topic: uniqueName(`faults-${profile.name}`),
    dlqTopic: '',
    database: uniqueName('faults')
      .replace(/[^A-Za-z0-9_-]/g, '_')
      .slice(0, 38),
  };
  run.dlqTopic = `${run.topic}-dlq`;
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
  await ensureTopics(admin, {
    topic: run.topic,
    partitions: 4,
    dlqTopic: run.dlqTopic,
    dlqPartitions: 1,
  });
  await admin.disconnect();
  const registry = registryEndpoint(env);
  const codec = await TickCodec.register(createRegistry(registry), {
    registry,
    version: 2,
    subject: valueSubject(run.topic),
  });

  const fleet = new Fleet<Process>(
    (name) =>
      name === 'scheduler'
        ? spawnService(serviceDir('scheduler'), schedulerEnv(env, run))
        : spawnService(serviceDir('rollup-worker'), workerEnv(env, run, name)),
    logger,
    pick,
    join(env.FAULT_OUT_DIR, `faults-${profile.name}-logs`, run.topic),
  );
  for (const store of STORES) await fleet.scale(store, 1);
  await fleet.scale('scheduler', 1);

  const events = faultSchedule(profile, pick).filter(
    (event) => env.FAULT_RESTART_STACK || event.kind !== 'restart',
  );
  const done = countByKind([]);
  const faultErrors: string[] = [];
  const restarts: FaultRunReport['restarts'] = [];
  const injected: Injected[] = [];
  const injector = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    idempotent: true,
  });
  await injector.connect();

  const carryOut = async (event: FaultEvent): Promise<void> => {
    switch (event.kind) {
      case 'kill-worker':
        return fleet.kill(event.store);
      case 'scale':
        return fleet.scale(event.store, event.replicas);
      case 'replay':
        return fleet.restartAll(event.store, () =>
          persist(
            60_000,
            `rewinding ${event.store} to offset 0`,
            async () => {
              const rewinder = kafka.admin();
              await rewinder.connect();
              try {
                await rewindGroup(rewinder, `${run.topic}-${event.store}`, run.topic);
              } finally {
                await rewinder.disconnect();
              }
            },
            logger,
          ),
        );
      case 'restart': {
        const ms = await restartPart(env.FAULT_STACK_SCRIPT, event.part, env.inherited);
        restarts.push({ part: event.part, ms });
        return;
      }
      case 'bad-input': {
        const round = done['bad-input'];
        injected.push(
          ...(await persist(
            60_000,
            'injecting bad input',
            () => injectBadInputs(injector, run.topic, codec.schemaId, Date.now(), round),
            logger,
          )),
        );
        return;
      }
    }
  };

  const loadProducers = await Promise.all(
    (['stocks', 'traffic'] as const).map((name) =>
      TickProducer.connect(kafka, codec, { topic: run.topic, source: `tickertape-faults/${name}` }),
    ),
  );
  const loads = Promise.all(
    (['stocks', 'traffic'] as const).map((name, i) =>
      runLoad(
        loadProducers[i]!,
        createProfile(name, { series: name === 'stocks' ? 20 : 100, seed: env.FAULT_SEED + i }),
        {
          ratePerSec: name === 'stocks' ? profile.stocksPerSec : profile.trafficPerSec,
          durationMs: profile.loadMs,
        },
      ),
    ),
  );
  const loadStart = Date.now();
  const carried = events.map(async (event) => {
    await delay(Math.max(0, loadStart + event.atMs - Date.now()));
    logger.info({ fault: event }, 'fault');
    try {
      await carryOut(event);
      done[event.kind] += 1;
    } catch (err) {
      faultErrors.push(`${event.kind} at ${event.atMs} ms: ${describeError(err)}`);
      logger.error({ err, fault: event }, 'fault could not be carried out');
    }
  });
  const summaries = await loads;
  await Promise.all(carried);
  await Promise.all(loadProducers.map((producer) => producer.close()));
  await injector.disconnect();
  await fleet.settle();
  // The end state an operator would restore: one worker per level, every one running.
  for (const store of STORES) await fleet.scale(store, 1);

  const mongo = createMongoClient({ uri: env.MONGODB_URI, appName: 'tickertape-faults', logger });
  await mongo.connect();
  let report: VerifyReport;
  let letters: Map<string, string[]>;
  try {
    report = await verify({
      kafka,
      db: mongo.db(run.database),
      decode: (value) => codec.decode(value),
      topic: run.topic,
      dlqTopic: run.dlqTopic,
      targets: STORES.map((store) => ({ store, groupId: `${run.topic}-${store}` })),
      bounds: { maxLatenessMs: 6 * 3_600_000, maxFutureMs: 300_000 },
      segments: { maxPoints: 100, writeOnChange: new Set() },
      waitMs: env.FAULT_CATCH_UP_MS,
      readTimeoutMs: 120_000,
      logger,
    });
    letters = await readDeadLetters(kafka, run.dlqTopic);
  } finally {
    await mongo.close();
    await fleet.close();
  }
  const badInputs = injected.map((bad) => ({
    ...bad,
    deadLettered: [...new Set(letters.get(`${bad.partition}/${bad.offset}`) ?? [])],
  }));
  const load = summaries.reduce(
    (sum, s) => ({
      generated: sum.generated + s.generated,
      acknowledged: sum.acknowledged + s.acknowledged,
      failed: sum.failed + s.failed,
    }),
    { generated: 0, acknowledged: 0, failed: 0 },
  );
  const planned = countByKind(events);
  return {
    profile: profile.name,
    seed: env.FAULT_SEED,
    topic: run.topic,
    database: run.database,
    startedAt: new Date(began).toISOString(),
    elapsedMs: Date.now() - began,
    load,
    faults: done,
    faultErrors,
    restarts,
    processes: fleet.counters,
    badInputs,
    verify: {
      tally: report.tally,
      stores: report.stores,
      differences: report.differences.length,
      sample: report.differences.slice(0, 20),
    },
    passed:
      report.differences.length === 0 &&
      faultErrors.length === 0 &&
      (Object.keys(planned) as FaultKind[]).every((kind) => done[kind] === planned[kind]) &&
      badInputs.length > 0 &&
      badInputs.every((bad) => bad.deadLettered.includes(bad.reason)),
  };
}
