import { LEVELS, LEVEL_SPECS } from '@tickertape/buckets';
import type { Figure, FigureRegistry } from './figures.js';
import type { BenchJson, BenchJsonDesign } from './input.js';

/*
 * The model's inputs as types, apart from the code that reads them (inputs.ts, bucket-inputs.ts,
 * read-inputs.ts), so those import these and not each other.
 */

const [finest, aboveFinest] = LEVELS;
/** The levels the benchmark's workers (and its density probe) run, the two finest: the model's levels. */
export const MODEL_LEVELS = [finest, aboveFinest] as const;
export type ModelLevel = (typeof MODEL_LEVELS)[number];

export function isModelLevel(text: string | undefined): text is ModelLevel {
  return (MODEL_LEVELS as readonly (string | undefined)[]).includes(text);
}

/** One value per model level, finest first. */
export function byModelLevel<T>(value: (level: ModelLevel) => T): Record<ModelLevel, T> {
  return Object.fromEntries(MODEL_LEVELS.map((level) => [level, value(level)])) as Record<
    ModelLevel,
    T
  >;
}

/** A level whose buckets are keyed by minute (hour buckets): its points say how many minutes a bucket held. */
export const keyedByMinute = (level: ModelLevel) => LEVEL_SPECS[level].subSlotMs === 60_000;

/** What one level's worker measured in the benchmark's B design. */
export interface LevelInputs {
  /** CPU seconds per tick of the level's worker. */
  cpuPerTick: Figure;
  /** Share of its wall time the worker was on the CPU (the rest it waited, mostly for the database). */
  busy: Figure;
  /** Database operations ÷ buckets written: 1 when every flush wrote one operation per bucket. */
  coalescing: Figure;
  ticksPerFlush: Figure;
  bucketsPerFlush: Figure;
}

/** A bucket's stored size at one measured density. */
export interface BucketPoint {
  perSecond: Figure;
  bytesPerBucket: Figure;
  /** Hour level: minutes of data an hour bucket held (the measured span may be shorter than an hour). */
  minutesPerBucket?: Figure;
}

export interface Inputs {
  registry: FigureRegistry;
  /** Where the bytes per bucket come from. */
  bytesFrom: 'density probe' | 'benchmark tick set';
  levels: Record<ModelLevel, LevelInputs>;
  bareCpuPerTick: Figure;
  /** Bytes of one Kafka record (what a fetch's FLUSH_MIN_BYTES counts). */
  recordBytes: Figure;
  /** The benchmark's own flushes, to check the operations formula against. */
  benchFlush: { seriesPerPartition: Figure; eventTicksPerSecondPerPartition: Figure };
  buckets: Record<ModelLevel, BucketPoint[]>;
  perTick: { perSecond: Figure; bytesPerTick: Figure }[];
  reads: {
    windowSensors: Figure;
    windowMinutes: Figure;
    windowRollups: Figure;
    windowP50: Figure;
    windowP99: Figure;
    windowPerTickP50: Figure;
    windowPerTickP99: Figure;
    /** The chart's range (a day): the model counts its buckets. */
    chartHours: Figure;
    chartRollups: Figure;
    chartP50: Figure;
    chartP99: Figure;
    chartPerTickP50: Figure;
    chartPerTickP99: Figure;
  };
  standInMsPerOp?: Figure;
}

export function designOf(json: BenchJson, key: string): BenchJsonDesign {
  const design = json.designs.find((d) => d.key === key);
  if (design === undefined) throw new Error(`design ${key} is missing from the benchmark's JSON`);
  return design;
}
