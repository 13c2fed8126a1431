import type { Logger } from '@tickertape/logger';
import { runDensityProbe } from './density.js';
import { DENSITY_PRESETS, SKETCH_DENSITY_PRESETS, densityStart } from './density-spec.js';
import type { BenchReport, DesignRun } from './bench-report.js';
import type { BenchEnv } from './env.js';
import { measureLatency, type LatencyResult } from './latency.js';
import { LIVE_DENSITIES } from './live/live-densities.js';
import type { LiveReport } from './live/live-types.js';
import { runLiveGrid } from './live/run-live.js';
import { produceAll } from './load.js';
import { describeMachine } from './machine.js';
import { measureDesigns } from './measure-designs.js';
import { openRunResources, type RunResources } from './run-resources.js';
import type { BenchSettings } from './settings.js';
import { StackMeter } from './stack-cpu.js';
import { tickSet, tickSetRange, tickSetShape } from './tick-set.js';
import { CATCH_UP_VARS, startLevels } from './workers.js';

export interface RunOptions {
  settings: BenchSettings;
  env: BenchEnv;
  logger: Logger;
  /** Extra node arguments for the worker processes (e.g. `--cpu-prof --cpu-prof-dir=…`). */
  workerNodeArgs?: readonly string[];
}

interface Step {
  run: RunResources;
  settings: BenchSettings;
  env: BenchEnv;
  logger: Logger;
  stack: StackMeter;
}

/** Stored bytes per tick by density, written in process through the workers' writer. */
function densities(
  { run, settings, logger }: Step,
  specs: (typeof DENSITY_PRESETS)[keyof typeof DENSITY_PRESETS],
  databaseName: (spec: (typeof specs)[number]) => string,
) {
  return runDensityProbe({
    stores: run.stores,
    designs: run.designs,
    databaseName,
    specs,
    seed: settings.seed,
    startMs: densityStart(Date.now(), specs),
    keep: settings.keep,
    logger,
  });
}

/** Produce → visible at half of B's rate, on a topic and database of its own. */
async function latencyAtHalfOf(step: Step, b: DesignRun): Promise<LatencyResult> {
  const { run, settings, env, logger } = step;
  logger.info({ rate: Math.round(b.ticksPerSec / 2) }, 'measuring produce → visible');
  await run.registerTopic(run.names.liveTopic, settings.partitions);
  const codec = await run.registerCodec(run.names.liveTopic);
  const db = await run.database('live');
  const live = await startLevels({
    env,
    admin: run.admin,
    topic: run.names.liveTopic,
    dlqTopic: run.names.dlqTopic,
    database: db.name,
    groupPrefix: run.names.group('live'),
    mode: settings.workers,
    ...(settings.workerConcurrency === undefined
      ? {}
      : { partitionsConcurrently: settings.workerConcurrency }),
    vars: CATCH_UP_VARS,
    logger,
  });
  try {
    return await measureLatency({
      kafka: run.kafka,
      codec,
      topic: run.names.liveTopic,
      store: db.rollups,
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
    await run.drop(db);
  }
}

/** The live grid: each cell published while ours, D and E consume it, one after another. */
async function liveGrid(step: Step): Promise<LiveReport> {
  const { run, settings, env, logger, stack } = step;
  const cells = await runLiveGrid({
    env,
    kafka: run.kafka,
    admin: run.admin,
    stack,
    mode: settings.workers,
    cells: settings.liveCells,
    durationMs: settings.liveDurationMs,
    ...(settings.liveBudgetMs === undefined ? {} : { budgetMs: settings.liveBudgetMs }),
    markerEveryMs: settings.markerEveryMs,
    seed: settings.seed,
    topic: async (name) => {
      const topic = `${run.names.topic}-${name}`;
      await run.registerTopic(topic, settings.partitions);
      return { topic, codec: await run.registerCodec(topic) };
    },
    dlqTopic: run.names.dlqTopic,
    database: run.database,
    drop: run.drop,
    group: run.names.group,
    ...(settings.workerConcurrency === undefined
      ? {}
      : { workerConcurrency: settings.workerConcurrency }),
    logger,
  });
  const liveDensities = await densities(step, LIVE_DENSITIES[settings.profile], (spec) =>
    run.databaseName(
      `livedensity${spec.perSecond.toFixed(4).replace('.', '_')}${spec.suggestedPolicy ? 'p' : ''}`,
    ),
  );
  return {
    cells,
    ...(settings.liveBudgetMs === undefined ? {} : { budgetMs: settings.liveBudgetMs }),
    densities: liveDensities,
  };
}

/**
 * One benchmark run, start to end: load one topic, consume it with each design in turn (each
 * with its own group and database), measure the reads and the produce → visible latency, run the
 * live grid, and clean up everything it made (unless `keep`).
 */
export async function runBench(options: RunOptions): Promise<BenchReport> {
  const { settings, env, logger } = options;
  const startedAt = Date.now();
  const run = await openRunResources(env, logger, settings.keep);
  try {
    const machine = describeMachine(run.stores.rollups);
    const stack = StackMeter.locate(env);
    logger.info({ stack: stack.lookup }, 'stack processes for the CPU figures');
    const step: Step = { run, settings, env, logger, stack };

    // 1. One topic, one fixed tick set, produced before anyone consumes.
    await run.registerTopic(run.names.topic, settings.partitions);
    await run.registerTopic(run.names.dlqTopic, 1);
    const codec = await run.registerCodec(run.names.topic);
    const spec = {
      stocks: settings.stocks,
      traffic: settings.traffic,
      startMs: tickSetRange(Date.now(), settings.durationMs).startMs,
      durationMs: settings.durationMs,
      seed: settings.seed,
    };
    const shape = tickSetShape(spec);
    logger.info({ topic: run.names.topic, ticks: shape.total }, 'loading the topic');
    const load = await produceAll(run.kafka, codec, run.names.topic, tickSet(spec));
    if (load.ticks !== shape.total) {
      throw new Error(`produced ${load.ticks} ticks, expected ${shape.total}`);
    }
    logger.info({ ...load }, 'topic loaded');

    // 2. The designs, the reads and the server probe.
    const { b, ...measured } = await measureDesigns({
      ...step,
      codec,
      shape,
      ...(options.workerNodeArgs === undefined ? {} : { workerNodeArgs: options.workerNodeArgs }),
    });

    // 3. Stored bytes per tick by density.
    const density = await densities(step, DENSITY_PRESETS[settings.profile], (s) =>
      run.databaseName(`density${String(s.perSecond).replace('.', '_')}`),
    );

    const sketchDensity = await densities(step, SKETCH_DENSITY_PRESETS[settings.profile], (s) =>
      run.databaseName(
        `sketch${s.perSecond.toFixed(4).replace('.', '_')}${s.sketches ? 'on' : 'off'}`,
      ),
    );

    // 4. Produce → visible, then 5. the live grid.
    const latency = await latencyAtHalfOf(step, b);
    const live = await liveGrid(step);

    return {
      settings,
      startedAt,
      finishedAt: Date.now(),
      machine,
      load: { ...load, partitions: settings.partitions, shape },
      ...measured,
      latency,
      density,
      sketchDensity,
      stack: stack.lookup,
      live,
    };
  } finally {
    await run.close();
  }
}
