import { LEVEL_SPECS } from '@tickertape/buckets';
import { FETCH_DEFAULTS, FRESHNESS_BUDGET_DEFAULTS, HOLD_DEFAULTS } from '@tickertape/topology';
import type { Figure } from './figures.js';
import {
  byModelLevel,
  MODEL_LEVELS,
  type BucketPoint,
  type Inputs,
  type ModelLevel,
} from './input-types.js';

/** The operator's questions: these total rates, over these series counts. */
export const SCENARIO_RATES = [10_000, 100_000, 1_000_000] as const;
export const SCENARIO_SERIES = [10_000, 1_000_000] as const;

/**
 * Choices of the model, not measurements. The flush settings are the rollup workers' defaults,
 * from the same table the workers read them from (@tickertape/topology).
 */
export const ASSUMPTIONS = {
  /** Plan each worker's core this full at most, leaving room for bursts, GC and rebalances. */
  utilisation: 0.7,
  /** FLUSH_MAX_WAIT_MS: a fetch waits at most this long (no longer the flush's span: budgets hold across fetches). */
  flushMaxWaitS: FETCH_DEFAULTS.maxWaitMs / 1000,
  /** FRESHNESS_BUDGET_MS by level: a partition's ticks are held this long, then written. */
  budgetS: byModelLevel((level) => FRESHNESS_BUDGET_DEFAULTS[level] / 1000),
  /** FLUSH_MAX_TICKS: the most ticks one flush holds. */
  flushMaxTicks: HOLD_DEFAULTS.maxTicks,
  /** FLUSH_MIN_BYTES: a fetch returns as soon as this much has arrived. */
  flushMinBytes: FETCH_DEFAULTS.minBytes,
  /** HELD_MAX_BYTES: all of a worker's held ticks, estimated, at most. */
  heldMaxBytes: HOLD_DEFAULTS.maxBytes,
  /** The workers' estimate of one held tick of two fields and two tags (held-ticks.ts). */
  heldBytesPerTick: 350,
  /** The smallest topic the project creates (the demo's and the benchmark's 4 partitions). */
  minPartitions: 4,
} as const;

export const SLOT_SECONDS = byModelLevel((level) => LEVEL_SPECS[level].slotMs / 1000);
const DAY_S = 86_400;

export interface Scenario {
  rate: number;
  series: number;
  /** Ticks per series per second. */
  perSecond: number;
}

export function scenarios(): Scenario[] {
  return SCENARIO_RATES.flatMap((rate) =>
    SCENARIO_SERIES.map((series) => ({ rate, series, perSecond: rate / series })),
  );
}

/** One worker is one Node process on one core: enough of them to stay under the utilisation. */
export function workersFor(rate: number, cpuPerTick: number, utilisation: number): number {
  return Math.max(1, Math.ceil((rate * cpuPerTick) / utilisation));
}

/**
 * A consumer group spreads a topic's partitions over at most as many consumers, so the topic
 * needs at least the busiest level's workers; a power of two, so halving or doubling the workers
 * keeps the partitions evenly spread (and a keyed topic's partitions are best set once: adding
 * some moves series to other partitions).
 */
export function partitionsFor(workers: number, minimum: number): number {
  let partitions = 1;
  while (partitions < Math.max(workers, minimum)) partitions *= 2;
  return partitions;
}

/**
 * Seconds of ticks one partition's flush holds, at most: a worker holds each partition's ticks
 * across fetches until the oldest has waited the level's freshness budget, unless the partition
 * holds FLUSH_MAX_TICKS first, or all the worker's holds pass HELD_MAX_BYTES (at the estimated
 * bytes per held tick). (A flush also waits for the timer's check, up to 1 s more, which only
 * lowers the operations: the span is the shortest it can be.)
 */
export function flushSpanSeconds(
  level: ModelLevel,
  rate: number,
  partitions: number,
  workers: number,
  budgetS: number = ASSUMPTIONS.budgetS[level],
): number {
  return Math.min(
    budgetS,
    (ASSUMPTIONS.flushMaxTicks * partitions) / rate,
    (ASSUMPTIONS.heldMaxBytes * workers) / (rate * ASSUMPTIONS.heldBytesPerTick),
  );
}

/**
 * Database operations per second of one level: one per bucket a flush touches (the measured
 * coalescing). A flush spanning `spanS` seconds touches each of its partition's series that
 * ticked in it once, plus once more when the series crosses a slot boundary inside it — and
 * never more buckets than it has ticks. Summed over the partitions' flushes per second:
 * min(R, S ÷ E + S ÷ slot).
 */
export function operationsPerSecond(
  rate: number,
  series: number,
  spanS: number,
  slotS: number,
): number {
  return Math.min(rate, series / spanS + series / slotS);
}

/**
 * Buckets of one flush of `ticks` ticks over `spanS` seconds of event time on a partition with
 * `series` series: the same reasoning per flush, to check against the benchmark's own flushes.
 */
export function bucketsPerFlush(
  ticks: number,
  series: number,
  spanS: number,
  slotS: number,
): number {
  return Math.min(ticks, series * (1 + spanS / slotS));
}

/** Buckets per day: every slot of every series that sees at least one tick (ticks evenly spaced). */
export function documentsPerDay(series: number, perSecond: number, slotS: number): number {
  return series * (DAY_S / slotS) * Math.min(1, perSecond * slotS);
}

/** The measured density closest to `perSecond` (on a log scale), and whether it lies outside. */
export function nearestPoint(
  points: readonly BucketPoint[],
  perSecond: number,
): { point: BucketPoint; outside: 'below' | 'above' | undefined } {
  const distance = (p: BucketPoint) => Math.abs(Math.log(p.perSecond.value / perSecond));
  const point = [...points].sort((x, y) => distance(x) - distance(y))[0];
  if (point === undefined) throw new Error('no measured bucket sizes to model from');
  const rates = points.map((p) => p.perSecond.value);
  const outside =
    perSecond < Math.min(...rates) ? 'below' : perSecond > Math.max(...rates) ? 'above' : undefined;
  return { point, outside };
}

/**
 * Bytes of one bucket at a density: the measured size at the nearest measured density. An hour
 * bucket measured over fewer than 60 minutes is scaled to 60 (its fixed part counted again per
 * minute: an upper bound).
 */
export function bytesPerBucket(point: BucketPoint): number {
  const minutes = point.minutesPerBucket?.value;
  const scale = minutes === undefined || minutes >= 60 ? 1 : 60 / minutes;
  return point.bytesPerBucket.value * scale;
}

export interface LevelPlan {
  level: ModelLevel;
  workers: number;
  /** Seconds of ticks in one partition's flush. */
  flushSpanS: number;
  /** Cores' worth of CPU at the measured CPU per tick, before the utilisation headroom. */
  cpuCores: number;
  operationsPerSecond: number;
  documentsPerDay: number;
  bytesPerBucket: number;
  bytesPerDay: number;
  bucketPoint: BucketPoint;
  outside: 'below' | 'above' | undefined;
}

export interface ScenarioPlan extends Scenario {
  levels: Record<ModelLevel, LevelPlan>;
  cores: number;
  partitions: number;
  /** One document per tick (C), bytes per day, at the nearest measured density. */
  perTickBytesPerDay: number;
  perTickFrom: Figure;
  /** Documents the standard reads examine: rollups (independent of rate and series) and per tick. */
  reads: {
    windowRollups: number;
    windowPerTick: number;
    chartRollups: number;
    chartPerTick: number;
  };
}

/**
 * Buckets of a one-day chart read from the level the benchmark's chart used: every slot of that
 * level the day touches (the benchmark's data covered only part of the day, so it read fewer).
 */
export function dayChartDocuments(chartSlotS: number, fromMs: number, toMs: number): number {
  const slotMs = chartSlotS * 1000;
  return Math.floor((toMs - 1) / slotMs) - Math.floor(fromMs / slotMs) + 1;
}

export interface ChartShape {
  slotS: number;
  fromMs: number;
  toMs: number;
}

export function planScenario(inputs: Inputs, scenario: Scenario, chart: ChartShape): ScenarioPlan {
  const { rate, series, perSecond } = scenario;
  const workersOf = (level: ModelLevel) =>
    workersFor(rate, inputs.levels[level].cpuPerTick.value, ASSUMPTIONS.utilisation);
  const workers = byModelLevel(workersOf);
  const partitions = partitionsFor(
    Math.max(...MODEL_LEVELS.map((level) => workers[level])),
    ASSUMPTIONS.minPartitions,
  );
  const levelPlan = (level: ModelLevel): LevelPlan => {
    const slotS = SLOT_SECONDS[level];
    const { point, outside } = nearestPoint(inputs.buckets[level], perSecond);
    const documents = documentsPerDay(series, perSecond, slotS);
    const bucketBytes = bytesPerBucket(point);
    const spanS = flushSpanSeconds(level, rate, partitions, workers[level]);
    return {
      level,
      workers: workers[level],
      flushSpanS: spanS,
      cpuCores: rate * inputs.levels[level].cpuPerTick.value,
      operationsPerSecond: operationsPerSecond(rate, series, spanS, slotS),
      documentsPerDay: documents,
      bytesPerBucket: bucketBytes,
      bytesPerDay: documents * bucketBytes,
      bucketPoint: point,
      outside,
    };
  };
  const perTick = [...inputs.perTick].sort(
    (x, y) =>
      Math.abs(Math.log(x.perSecond.value / perSecond)) -
      Math.abs(Math.log(y.perSecond.value / perSecond)),
  )[0];
  if (perTick === undefined) throw new Error('no per-tick bytes to compare with');
  const { reads } = inputs;
  const windowS = reads.windowMinutes.value * 60;
  return {
    ...scenario,
    levels: byModelLevel(levelPlan),
    cores: MODEL_LEVELS.reduce((sum, level) => sum + workers[level], 0),
    partitions,
    perTickBytesPerDay: rate * DAY_S * perTick.bytesPerTick.value,
    perTickFrom: perTick.bytesPerTick,
    reads: {
      windowRollups: reads.windowRollups.value,
      windowPerTick: reads.windowSensors.value * windowS * perSecond,
      chartRollups: dayChartDocuments(chart.slotS, chart.fromMs, chart.toMs),
      chartPerTick: DAY_S * perSecond,
    },
  };
}
