import type { Level } from '@tickertape/buckets';
import type { Store } from '@tickertape/topology';
import type { InputFormat } from '@tickertape/tick';
import type { RejectGroup } from './rejects.js';
import type { ShadowOutcome } from './shadows.js';
import type { LevelTally, SegmentTally } from './writer.js';

export interface Refusal {
  store: Store;
  ticks: number;
  retentionMs: number;
}

export interface BackfillReport {
  input: string;
  sha256: string;
  /** The synthetic partition the input's lines are applied under (source.ts). */
  source: number;
  format: InputFormat;
  database: string;
  lines: number;
  /** Lines that are valid ticks (whether or not every store took them). */
  ticks: number;
  rejected: number;
  rejects: RejectGroup[];
  levels: { level: Level; tally: LevelTally }[];
  segments?: SegmentTally;
  refusals: Refusal[];
  /** Live buckets copied into shadows before the final slots were written. */
  seeded: number;
  shadows: ShadowOutcome[];
  elapsedMs: number;
  ticksPerSecond: number;
}
