import { LEVEL_SPECS, shellDocument, slotStart, type Level } from '@tickertape/buckets';
import { createKafka, createMongoClient, createRegistry, kafkaSecurity } from '@tickertape/clients';
import { registryEndpoint } from '@tickertape/config';
import type { Logger } from '@tickertape/logger';
import { insertShells } from '@tickertape/store';
import {
  parseSeriesKey,
  registryAuthHeaders,
  TickCodec,
  valueSubject,
  type RegistryEndpoint,
} from '@tickertape/tick';
import type { Admin } from 'kafkajs';
import type { Db } from 'mongodb';
import { randomBytes } from 'node:crypto';
import { consumeInProcess, type ConsumeResult, type Design } from './consume.js';
import { profileLevels, type CpuProfileRun } from './cpu-profile-run.js';
import {
  insertManyDesign,
  naiveDesign,
  noOpDesign,
  perTickCollection,
  sinkDesign,
  type KeyedTickDocument,
} from './designs.js';
import { runDensityProbe, type DensityProbeResult } from './density.js';
import { DENSITY_PRESETS, densityStart } from './density-spec.js';
import type { BenchEnv } from './env.js';
import { measureLatency, type LatencyResult } from './latency.js';
import { LIVE_DENSITIES } from './live/live-densities.js';
import type { LiveReport } from './live/live-types.js';
import { runLiveGrid } from './live/run-live.js';
import { produceAll, type LoadResult } from './load.js';
import { describeMachine, type Machine } from './machine.js';
import { probeServer, type ServerProbe } from './probe.js';
import { measureReads, type ReadResults } from './reads.js';
import type { BenchSettings } from './settings.js';
import { StackMeter, type RunCpu, type StackCpu, type StackLookup } from './stack-cpu.js';
import { storedBytes, type Stored } from './storage.js';
import { tickSet, tickSetRange, tickSetShape, type TickSetShape } from './tick-set.js';
import { CATCH_UP_VARS, runLevels, startLevels, type LevelRun } from './workers.js';

export type DesignKey = 'A' | 'B' | 'C' | 'D' | 'E' | 'F';

/** One design's run: what it consumed, how fast, what it cost and what it left stored. */
export interface DesignRun {
  key: DesignKey;
  ticks: number;
  seconds: number;
  ticksPerSec: number;
  /** Document-level writes (inserts, upserts, bucket updates); 0 for A. */
  ops: number;
  /** Database round trips (insertOne calls, insertMany or bulk write calls). */
  requests: number;
  cpuSeconds: number;
  /** What its database holds afterwards; absent for A, which stores nothing. */
  stored?: Stored;
  cappedBy?: 'time' | 'ticks';
  /** B and F: each level's worker. */
  levels?: LevelRun[];
  /** F: preallocating the shells, before its clock started. */
  shells?: { documents: number; seconds: number };
  /** A and B: ticks/s of every round, in run order; the figures are the median round's. */
  rounds?: number[];
  /**
   * CPU seconds of the local stack's database server, Kafka and registry over the same run
   * (/proc), or why not measured; absent in reports from before it.
   */
  stackCpu?: StackCpu;
  /** Share of all the machine's cores busy over the run, anyone's processes (/proc/stat). */
  machineBusy?: number;
}

export interface BenchReport {
  settings: BenchSettings;
  startedAt: number;
  finishedAt: number;
  machine: Machine;
  load: LoadResult & { partitions: number; shape: TickSetShape };
  designs: DesignRun[];
  reads: ReadResults;
  latency: LatencyResult;
  probe: ServerProbe;
  /** Stored bytes per tick by density (density.ts); absent in reports from before it. */
  density?: DensityProbeResult;
  /** Where the stack's processes were found for `stackCpu`; absent in reports from before it. */
  stack?: StackLookup;
  /** B's workers under `node --cpu-prof`, one extra round; absent when not profiled. */
  cpuProfile?: CpuProfileRun;
  /** The live grid (live/run-live.ts); absent in reports from before it. */
  live?: LiveReport;
}

const SHELL_LEVELS: readonly Level[] = ['minute', 'hour'];

function fromConsume(
  key: DesignKey,
  result: ConsumeResult,
  cpu: RunCpu,
  stored?: Stored,
): DesignRun {
  return {
    key,
    ticks: result.ticks,
    seconds: result.seconds,
    ticksPerSec: result.ticks / result.seconds,
    ops: result.ops,
    requests: result.requests,
    cpuSeconds: result.cpuSeconds,
    ...(stored === undefined ? {} : { stored }),
    ...(result.cappedBy === undefined ? {} : { cappedBy: result.cappedBy }),
    ...cpu,
  };
}

/** B and F: the pipeline's rate is the slower level's (both must have committed the topic). */
function fromLevels(
  key: DesignKey,
  total: number,
  levels: LevelRun[],
  stored: Stored,
  cpu: RunCpu,
): DesignRun {
  const seconds = Math.max(...levels.map((l) => l.seconds));
  return {
    key,
    ticks: total,
    seconds,
    ticksPerSec: total / seconds,
    ops: levels.reduce((sum, l) => sum + l.ops, 0),
    requests: levels.reduce((sum, l) => sum + l.bulkWrites, 0),
    cpuSeconds: levels.reduce((sum, l) => sum + l.cpuSeconds, 0),
    stored,
    levels,
    ...cpu,
  };
}

/** Every shell of the data's range, for every series and both levels the workers run. */
function allShells(shape: TickSetShape) {
  const series = [
    ...shape.stockSeries.map((key) => ({ key, fields: shape.stockFields })),
    ...shape.trafficSeries.map((key) => ({ key, fields: shape.trafficFields })),
  ].map(({ key, fields }) => ({ seriesKey: key, ...parseSeriesKey(key), fields }));
  return SHELL_LEVELS.map((level) => {
    const shells = [];
    const { slotMs } = LEVEL_SPECS[level];
    for (let start = slotStart(level, shape.startMs); start < shape.endMs; start += slotMs) {
      for (const s of series) shells.push(shellDocument(level, s, start));
    }
    return { level, shells };
  });
}

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

export interface RunOptions {
  settings: BenchSettings;
  env: BenchEnv;
  logger: Logger;
  /** Extra node arguments for the worker processes (e.g. `--cpu-prof --cpu-prof-dir=…`). */
  workerNodeArgs?: readonly string[];
}

/** The round with the median ticks/s (the lower middle of an even count). */
export function medianOf(runs: readonly DesignRun[]): DesignRun {
  const sorted = [...runs].sort((x, y) => x.ticksPerSec - y.ticksPerSec);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (middle === undefined) throw new Error('no rounds to take a median of');
  return middle;
}

/** The median round, carrying every round's ticks/s in run order. */
export function medianRound(runs: readonly DesignRun[]): DesignRun {
  const median = medianOf(runs);
  return runs.length > 1 ? { ...median, rounds: runs.map((r) => r.ticksPerSec) } : median;
}

/**
 * One benchmark run, start to end: load one topic, consume it with each design in turn (each
 * with its own group and database), measure the reads and the produce → visible latency, and
 * clean up everything it made (unless `keep`).
 */
export async function runBench(options: RunOptions): Promise<BenchReport> {
  const { settings, env, logger } = options;
  const startedAt = Date.now();
  const names = runNames();
  const workerConcurrency =
    settings.workerConcurrency === undefined
      ? {}
      : { partitionsConcurrently: settings.workerConcurrency };
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
  const database = (design: string): Db => {
    const name = names.database(design);
    databases.add(name);
    return mongo.db(name);
  };
  const drop = async (db: Db) => {
    if (settings.keep) return;
    await db.dropDatabase();
    databases.delete(db.databaseName);
  };
  const registerTopic = async (topic: string, partitions: number) => {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic, numPartitions: partitions }],
    });
    topics.push(topic);
  };
  const registerCodec = async (topic: string) => {
    const subject = valueSubject(topic);
    subjects.push(subject);
    return TickCodec.register(registry, {
      registry: registryAt,
      version: 2,
      subject,
    });
  };

  await Promise.all([mongo.connect(), admin.connect()]);
  try {
    const machine = await describeMachine(mongo);
    const stack = StackMeter.locate(env);
    logger.info({ stack: stack.lookup }, 'stack processes for the CPU figures');

    // 1. One topic, one fixed tick set, produced before anyone consumes.
    await registerTopic(names.topic, settings.partitions);
    await registerTopic(names.dlqTopic, 1);
    const codec = await registerCodec(names.topic);
    const spec = {
      stocks: settings.stocks,
      traffic: settings.traffic,
      startMs: tickSetRange(Date.now(), settings.durationMs).startMs,
      durationMs: settings.durationMs,
      seed: settings.seed,
    };
    const shape = tickSetShape(spec);
    logger.info({ topic: names.topic, ticks: shape.total }, 'loading the topic');
    const load = await produceAll(kafka, codec, names.topic, tickSet(spec));
    if (load.ticks !== shape.total) {
      throw new Error(`produced ${load.ticks} ticks, expected ${shape.total}`);
    }
    const total = shape.total;
    logger.info({ ...load }, 'topic loaded');

    const inProcess = async (
      key: DesignKey,
      design: Design,
      db?: Db,
      capped = false,
      round = 0,
    ) => {
      logger.info({ design: key, round }, 'consuming');
      const meter = stack.window();
      const result = await consumeInProcess({
        kafka,
        codec,
        topic: names.topic,
        groupId: names.group(`${key.toLowerCase()}${round}`),
        total,
        design,
        meter,
        logger,
        ...(capped ? { cap: { ms: settings.naiveCapMs, ticks: settings.naiveCapTicks } } : {}),
      });
      const stored = db === undefined ? undefined : await storedBytes(db);
      const run = fromConsume(key, result, meter.result(), stored);
      logger.info({ design: key, ticksPerSec: Math.round(run.ticksPerSec) }, 'consumed');
      return run;
    };
    const levelOptions = (db: Db, group: string) => ({
      env,
      admin,
      topic: names.topic,
      dlqTopic: names.dlqTopic,
      database: db.databaseName,
      groupPrefix: names.group(group),
      mode: settings.workers,
      ...(options.workerNodeArgs === undefined ? {} : { nodeArgs: options.workerNodeArgs }),
      ...workerConcurrency,
      vars: CATCH_UP_VARS,
      logger,
    });
    const workers = async (key: DesignKey, db: Db, round = 0) => {
      logger.info({ design: key, round }, 'consuming with the rollup workers');
      const meter = stack.window();
      const { runs: levels } = await runLevels({
        ...levelOptions(db, `${key.toLowerCase()}${round}`),
        meter,
      });
      const run = fromLevels(key, total, levels, await storedBytes(db), meter.result());
      logger.info({ design: key, ticksPerSec: Math.round(run.ticksPerSec) }, 'consumed');
      return run;
    };

    // 2. The designs, one after another on the same topic.
    const designs: DesignRun[] = [];
    // A and B, the ratio that matters most, alternate for several rounds: on a shared machine one
    // round can land in someone else's busy minute. The median round of each is reported.
    const aRounds: DesignRun[] = [];
    const bRounds: { run: DesignRun; db: Db }[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      aRounds.push(await inProcess('A', noOpDesign, undefined, false, round));
      const db = database(`b${round}`);
      bRounds.push({ run: await workers('B', db, round), db });
    }
    designs.push(medianRound(aRounds));
    const b = medianRound(bRounds.map((r) => r.run));
    designs.push(b);
    // The median round's database stays for the reads; the others go.
    const dbB = bRounds.find((r) => r.run === medianOf(bRounds.map((x) => x.run)))!.db;
    for (const { db } of bRounds) if (db !== dbB) await drop(db);

    // Where B's workers spend their CPU: one more round under the profiler, not measured.
    let cpuProfile: CpuProfileRun | undefined;
    if (settings.cpuProfile) {
      logger.info('profiling a round of the workers');
      const dbProfile = database('bprof');
      cpuProfile = await profileLevels({
        ...levelOptions(dbProfile, 'bprof'),
        keep: settings.keep,
      });
      await drop(dbProfile);
    }

    const dbC = database('c');
    designs.push(await inProcess('C', naiveDesign(await perTickCollection(dbC, true)), dbC, true));
    await drop(dbC);

    const dbD = database('d');
    designs.push(await inProcess('D', insertManyDesign(await perTickCollection(dbD, true)), dbD));

    // 3. The read side while B's rollups and D's per-tick documents are both there.
    logger.info('measuring reads');
    const reads = await measureReads({
      rollupDb: dbB,
      perTickDb: dbD,
      shape,
      runs: settings.readRuns,
      rawBudgetMs: settings.rawReadBudgetMs,
    });
    await drop(dbD);
    await drop(dbB);

    const dbE = database('e');
    const keyed = await perTickCollection<KeyedTickDocument>(dbE, false);
    designs.push(await inProcess('E', sinkDesign(keyed), dbE));
    await drop(dbE);

    const dbF = database('f');
    logger.info('preallocating shells');
    const shellsStarted = performance.now();
    let shellDocuments = 0;
    for (const { level, shells } of allShells(shape)) {
      shellDocuments += await insertShells(dbF, level, shells);
    }
    const shellSeconds = (performance.now() - shellsStarted) / 1000;
    const f = await workers('F', dbF);
    designs.push({ ...f, shells: { documents: shellDocuments, seconds: shellSeconds } });
    await drop(dbF);

    // Where B's time went: the guarded upsert vs an `_id`-only one, on a collection of B's size.
    logger.info('probing the server');
    const dbProbe = database('probe');
    const probe = await probeServer(dbProbe, b.stored?.documents ?? 0);
    await drop(dbProbe);

    // Stored bytes per tick by density, B written in process through the workers' writer.
    const densitySpecs = DENSITY_PRESETS[settings.profile];
    const density = await runDensityProbe({
      mongo,
      databaseName: (spec) =>
        database(`density${String(spec.perSecond).replace('.', '_')}`).databaseName,
      specs: densitySpecs,
      seed: settings.seed,
      startMs: densityStart(Date.now(), densitySpecs),
      keep: settings.keep,
      logger,
    });

    // 4. Produce → visible at half of B's rate, on a topic and database of its own.
    logger.info({ rate: Math.round(b.ticksPerSec / 2) }, 'measuring produce → visible');
    await registerTopic(names.liveTopic, settings.partitions);
    const liveCodec = await registerCodec(names.liveTopic);
    const dbLive = database('live');
    const live = await startLevels({
      env,
      admin,
      topic: names.liveTopic,
      dlqTopic: names.dlqTopic,
      database: dbLive.databaseName,
      groupPrefix: names.group('live'),
      mode: settings.workers,
      ...workerConcurrency,
      vars: CATCH_UP_VARS,
      logger,
    });
    let latency: LatencyResult;
    try {
      latency = await measureLatency({
        kafka,
        codec: liveCodec,
        topic: names.liveTopic,
        db: dbLive,
        rate: b.ticksPerSec / 2,
        durationMs: settings.latencyMs,
        markerEveryMs: settings.markerEveryMs,
        stocks: settings.stocks,
        traffic: settings.traffic,
        seed: settings.seed,
        logger,
      });
    } finally {
      await Promise.all(live.map((w) => w.stop()));
    }
    await drop(dbLive);

    // 5. The live grid: each cell published while ours, D and E consume it, one after another.
    const liveCells = await runLiveGrid({
      env,
      kafka,
      admin,
      stack,
      mode: settings.workers,
      cells: settings.liveCells,
      durationMs: settings.liveDurationMs,
      ...(settings.liveBudgetMs === undefined ? {} : { budgetMs: settings.liveBudgetMs }),
      markerEveryMs: settings.markerEveryMs,
      seed: settings.seed,
      topic: async (name) => {
        const topic = `${names.topic}-${name}`;
        await registerTopic(topic, settings.partitions);
        return { topic, codec: await registerCodec(topic) };
      },
      dlqTopic: names.dlqTopic,
      database,
      drop,
      group: names.group,
      ...(settings.workerConcurrency === undefined
        ? {}
        : { workerConcurrency: settings.workerConcurrency }),
      logger,
    });
    const liveDensitySpecs = LIVE_DENSITIES[settings.profile];
    const liveDensities = await runDensityProbe({
      mongo,
      databaseName: (spec) =>
        database(
          `livedensity${spec.perSecond.toFixed(4).replace('.', '_')}${spec.suggestedPolicy ? 'p' : ''}`,
        ).databaseName,
      specs: liveDensitySpecs,
      seed: settings.seed,
      startMs: densityStart(Date.now(), liveDensitySpecs),
      keep: settings.keep,
      logger,
    });

    return {
      settings,
      startedAt,
      finishedAt: Date.now(),
      machine,
      load: { ...load, partitions: settings.partitions, shape },
      designs,
      reads,
      latency,
      probe,
      density,
      stack: stack.lookup,
      ...(cpuProfile === undefined ? {} : { cpuProfile }),
      live: {
        cells: liveCells,
        ...(settings.liveBudgetMs === undefined ? {} : { budgetMs: settings.liveBudgetMs }),
        densities: liveDensities,
      },
    };
  } finally {
    if (!settings.keep) {
      for (const name of databases) await mongo.db(name).dropDatabase();
      if (topics.length > 0) await admin.deleteTopics({ topics });
      for (const subject of subjects) await deleteSubject(registryAt, subject);
    } else {
      logger.info({ topics, databases: [...databases], subjects }, 'kept for inspection');
    }
    await admin.disconnect();
    await mongo.close();
  }
}
