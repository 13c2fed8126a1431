import { KEEP_EVERYTHING, type Level, type LevelPolicy } from '@tickertape/buckets';
import type { HistoryRun, SwapResult } from '../port/history.js';
import { Collections } from './collections.js';

/** A level's watermark document: `finalBefore` absent while only a generation was recorded. */
export interface WatermarkRecord {
  finalBefore?: number;
  generation: number;
  updatedAtMs: number;
}

/** Progress of one partition's swap, by shadow name (the Mongo store's `rebuild_swaps`). */
export interface SwapRecord {
  live: string;
  replaced: string;
  state: 'saved' | 'swapped';
  method: SwapResult['method'];
  saved: number;
}

/** Everything one in-memory store holds: its bucket collections and its small documents. */
export class MemoryState {
  readonly collections = new Collections();
  readonly watermarks = new Map<Level, WatermarkRecord>();
  policy: LevelPolicy = KEEP_EVERYTHING;
  readonly runs = new Map<string, HistoryRun>();
  readonly swaps = new Map<string, SwapRecord>();

  /** The level's watermark document, created as an upsert would. */
  watermark(level: Level, nowMs: number): WatermarkRecord {
    const found = this.watermarks.get(level);
    if (found) return found;
    const created: WatermarkRecord = { generation: 0, updatedAtMs: nowMs };
    this.watermarks.set(level, created);
    return created;
  }

  bumpGeneration(level: Level, nowMs: number): void {
    const mark = this.watermark(level, nowMs);
    mark.generation += 1;
    mark.updatedAtMs = nowMs;
  }
}
