import { LEVELS, type Level } from '@tickertape/buckets';
import type { Finality, WatermarkState } from '../port/finality.js';
import type { ReadSession } from '../port/read-session.js';
import type { MemoryState } from './state.js';

/** Watermarks and generations; one process, no lagging member: reads need no session. */
export class MemoryFinality implements Finality {
  constructor(private readonly state: MemoryState) {}

  readWatermarks(_session?: ReadSession): Promise<WatermarkState> {
    const state: WatermarkState = {
      finalBefore: {},
      generation: Object.fromEntries(LEVELS.map((level) => [level, 0])) as Record<Level, number>,
    };
    for (const [level, mark] of this.state.watermarks) {
      if (mark.finalBefore !== undefined) state.finalBefore[level] = mark.finalBefore;
      state.generation[level] = mark.generation;
    }
    return Promise.resolve(state);
  }

  /** Forward only ($max): a late or second scheduler cannot un-finalise a slot. */
  advanceWatermarks(marks: Readonly<Partial<Record<Level, number>>>, nowMs: number): Promise<void> {
    for (const [level, mark] of Object.entries(marks) as [Level, number][]) {
      const record = this.state.watermark(level, nowMs);
      record.finalBefore = Math.max(record.finalBefore ?? Number.NEGATIVE_INFINITY, mark);
      record.updatedAtMs = nowMs;
    }
    return Promise.resolve();
  }

  bumpGeneration(level: Level, nowMs: number): Promise<void> {
    this.state.bumpGeneration(level, nowMs);
    return Promise.resolve();
  }

  beginReads(): ReadSession | undefined {
    return undefined;
  }
}
