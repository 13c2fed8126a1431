import { isModelLevel, MODEL_LEVELS, type ModelLevel } from '@tickertape/capacity';
import { parsePartitionName } from '@tickertape/buckets';
import { TICKS_COLLECTION } from './designs.js';
import type { AppliedModes } from './level-policy.js';
import type { CollectionStored, Stored } from './storage.js';

/** The rollup levels the probe writes: the benchmark's workers' levels, the capacity model's. */
export const DENSITY_LEVELS = MODEL_LEVELS;
export type DensityLevel = ModelLevel;

/** Stored figures of a group of collections, as storage.ts measured them. */
export interface StoredPart {
  documents: number;
  dataBytes: number;
  /** Estimated (storage.ts). */
  indexBytes: number;
}

/** One level of B as the probe wrote it: the writer's counters and what the level stores. */
export interface LevelWrite extends StoredPart {
  /** Buckets the flushes touched (one database operation each, replays aside). */
  buckets: number;
  operations: number;
  bulkWrites: number;
}

export interface BytesPerTick {
  data: number;
  index: number;
  /** data + index. */
  total: number;
}

/** What one density measured, before anything is divided. */
export interface DensityMeasured {
  perSecond: number;
  series: number;
  ticks: number;
  durationMs: number;
  flushes: number;
  /** B: each level's partitions. */
  levels: Record<DensityLevel, LevelWrite>;
  /** C: one document per tick with the {series, ts} index. */
  perTick: StoredPart;
  /** The level policy B was written under (absent in reports from before it: full). */
  modes?: AppliedModes;
  /** Written with quantile sketches and a weighted field (applySketchPolicy). */
  sketches?: boolean;
  /** `modes` are what the stack decided on its own (applyDefaultPolicy), not an operator's. */
  defaults?: boolean;
}

export interface DensityResult extends DensityMeasured {
  bytesPerTick: {
    minute: BytesPerTick;
    hour: BytesPerTick;
    /** B: minute + hour. */
    rollups: BytesPerTick;
    /** C. */
    perTick: BytesPerTick;
  };
  /** C's stored bytes per tick ÷ B's (minute + hour). */
  cOverB: number;
}

const EMPTY: StoredPart = { documents: 0, dataBytes: 0, indexBytes: 0 };

function add(a: StoredPart, b: CollectionStored): StoredPart {
  return {
    documents: a.documents + b.documents,
    dataBytes: a.dataBytes + b.dataBytes,
    indexBytes: a.indexBytes + b.indexBytes,
  };
}

/**
 * One density's database, split by what each collection holds: a rollup level's partitions
 * (by their names) or C's per-tick collection. Anything else is not the probe's and is refused.
 */
export function splitStored(stored: Stored): Record<DensityLevel | 'perTick', StoredPart> {
  const parts: Record<DensityLevel | 'perTick', StoredPart> = {
    minute: EMPTY,
    hour: EMPTY,
    perTick: EMPTY,
  };
  for (const collection of stored.byCollection) {
    // The store's own small documents (the level policy's one per level): configuration, not
    // what a tick costs.
    if (collection.kind === 'store') continue;
    const level = parsePartitionName(collection.name)?.level;
    const part =
      collection.name === TICKS_COLLECTION ? 'perTick' : isModelLevel(level) ? level : undefined;
    if (part === undefined) {
      throw new Error(`density probe: unexpected collection ${collection.name} in its database`);
    }
    parts[part] = add(parts[part], collection);
  }
  return parts;
}

function perTick(part: StoredPart, ticks: number): BytesPerTick {
  return {
    data: part.dataBytes / ticks,
    index: part.indexBytes / ticks,
    total: (part.dataBytes + part.indexBytes) / ticks,
  };
}

/** The per-tick figures and C/B, from the measured bytes of one density. */
export function densityFigures(measured: DensityMeasured): DensityResult {
  const { minute, hour } = measured.levels;
  const minutePerTick = perTick(minute, measured.ticks);
  const hourPerTick = perTick(hour, measured.ticks);
  const rollups: BytesPerTick = {
    data: minutePerTick.data + hourPerTick.data,
    index: minutePerTick.index + hourPerTick.index,
    total: minutePerTick.total + hourPerTick.total,
  };
  const c = perTick(measured.perTick, measured.ticks);
  return {
    ...measured,
    bytesPerTick: { minute: minutePerTick, hour: hourPerTick, rollups, perTick: c },
    cOverB: c.total / rollups.total,
  };
}
