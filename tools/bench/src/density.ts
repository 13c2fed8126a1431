import type { Logger } from '@tickertape/logger';
import type { MongoStores } from '@tickertape/store';
import type { DesignDatabases } from './design-databases.js';
import {
  DENSITY_LEVELS,
  densityFigures,
  splitStored,
  type DensityLevel,
  type DensityResult,
  type LevelWrite,
} from './density-figures.js';
import { syntheticFlushes, type FlushPlan } from './density-flushes.js';
import { densityTickSpec, type DensitySpec } from './density-spec.js';
import { perTickCollection, tickDocument } from './designs.js';
import {
  applyDefaultPolicy,
  applySketchPolicy,
  applySuggestedPolicy,
  type AppliedModes,
} from './level-policy.js';
import { benchDatabase, type BenchDatabase } from './run-resources.js';
import { storedBytes } from './storage.js';
import { tickSet, tickSetShape } from './tick-set.js';

export interface DensityProbeOptions {
  stores: MongoStores;
  designs: DesignDatabases;
  /** A database of its own per density, unique to the run (dropped afterwards unless `keep`). */
  databaseName: (spec: DensitySpec) => string;
  specs: readonly DensitySpec[];
  seed: number;
  /** Event time of the first tick of every density. */
  startMs: number;
  plan?: FlushPlan;
  keep: boolean;
  logger: Logger;
}

export interface DensityProbeResult {
  seed: number;
  startMs: number;
  plan: FlushPlan;
  densities: DensityResult[];
}

/** 4 partitions as the benchmark's topic; a flush about the size of the workers' in the benchmark. */
export const DEFAULT_FLUSH_PLAN: FlushPlan = { partitions: 4, flushTicks: 3000 };

async function probeOne(
  db: BenchDatabase,
  spec: DensitySpec,
  options: DensityProbeOptions,
  plan: FlushPlan,
): Promise<DensityResult> {
  const tickSpec = densityTickSpec(spec, options.seed, options.startMs);
  const shape = tickSetShape(tickSpec);
  // Before the writers' first flush: they read the policy then.
  const modes: AppliedModes = spec.suggestedPolicy
    ? await applySuggestedPolicy(db.rollups, spec.perSecond)
    : spec.defaults
      ? await applyDefaultPolicy(db.rollups, spec.perSecond, options.startMs)
      : {};
  if (spec.sketches) await applySketchPolicy(db.rollups);
  // B through the workers' own write path: each level's RollupWriter folds a flush (foldBatch)
  // and writes one guarded upsert per bucket, creating the partitions with their indexes.
  const writers = DENSITY_LEVELS.map((level) => ({ level, writer: db.rollups.writer(level) }));
  const unwritten = (): LevelWrite => ({
    documents: 0,
    dataBytes: 0,
    indexBytes: 0,
    buckets: 0,
    operations: 0,
    bulkWrites: 0,
  });
  const levels: Record<DensityLevel, LevelWrite> = { minute: unwritten(), hour: unwritten() };
  // C's stored shape is the same however it is inserted: insertMany keeps the probe short.
  const ticksCollection = await perTickCollection(db.designDb, true);
  let ticks = 0;
  let flushes = 0;
  for (const flush of syntheticFlushes(tickSet(tickSpec), plan)) {
    for (const { level: name, writer } of writers) {
      const stats = await writer.apply(flush);
      const level = levels[name];
      level.buckets += stats.buckets;
      level.operations += stats.operations;
      level.bulkWrites += stats.bulkWrites;
    }
    await ticksCollection.insertMany(flush.map(tickDocument), { ordered: false });
    ticks += flush.length;
    flushes += 1;
  }
  if (ticks !== shape.total)
    throw new Error(`density probe wrote ${ticks} of ${shape.total} ticks`);
  const parts = splitStored(await storedBytes(db.rollups));
  for (const level of DENSITY_LEVELS) Object.assign(levels[level], parts[level]);
  return densityFigures({
    perSecond: spec.perSecond,
    series: shape.stockSeries.length + shape.trafficSeries.length,
    ticks,
    durationMs: spec.durationMs,
    flushes,
    levels,
    perTick: parts.perTick,
    modes,
    ...(spec.sketches ? { sketches: true } : {}),
    ...(spec.defaults ? { defaults: true } : {}),
  });
}

/**
 * Stored bytes per tick at each density, for tickertape's rollups (B: minute + hour, written
 * through RollupWriter in flushes like the workers') and one document per tick (C), on the same
 * generated ticks, without Kafka. Each density has its own database.
 */
export async function runDensityProbe(options: DensityProbeOptions): Promise<DensityProbeResult> {
  const plan = options.plan ?? DEFAULT_FLUSH_PLAN;
  const densities: DensityResult[] = [];
  for (const spec of options.specs) {
    const db = await benchDatabase(options.stores, options.designs, options.databaseName(spec));
    options.logger.info({ perSecond: spec.perSecond, database: db.name }, 'density probe');
    try {
      densities.push(await probeOne(db, spec, options, plan));
    } finally {
      if (!options.keep) await options.stores.dropDatabase(db.name);
    }
  }
  return { seed: options.seed, startMs: options.startMs, plan, densities };
}
