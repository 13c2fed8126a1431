import type { Level } from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import type { TickCodec } from '@tickertape/tick';
import type { Admin, Kafka } from 'kafkajs';
import type { BenchEnv } from '../env.js';
import type { BenchDatabase } from '../run-resources.js';
import type { StackMeter } from '../stack-cpu.js';
import type { WorkerMode } from '../workers.js';
import type { DensityProbeResult } from '../density.js';
import type { AppliedModes } from '../level-policy.js';
import type { RunCpu } from '../stack-cpu.js';
import type { SeriesLoad } from '../tick-set.js';
import type { VisibleLatency } from './markers.js';

/* What a live run measured, apart from the code that runs (run-live.ts) and reads it (live-figures.ts). */

/**
 * `ours`: the workers at their budgets; `ours0`: the same workers with FRESHNESS_BUDGET_MS=0 —
 * every fetch written at once, as before budgets — for the before/after in one run.
 */
export const LIVE_DESIGNS = ['ours', 'ours0', 'D', 'E'] as const;
export type LiveDesign = (typeof LIVE_DESIGNS)[number];

/** One store of a design in one cell: a rollup level of ours, or D's and E's tick documents. */
export interface LiveStore {
  store: Level | 'ticks';
  /** Records consumed (good ticks and markers alike). */
  consumed: number;
  /** Ticks written (in buckets, or as documents). */
  applied: number;
  /** Document-level writes: bucket updates, inserts, upserts. */
  ops: number;
  /** Round trips carrying them: bulk writes, insertMany calls. */
  requests: number;
  /** CPU of the process that consumed and wrote (a worker; the harness for D and E). */
  cpuSeconds: number;
  /** Records produced but not yet consumed when the producer stopped: 0 = it kept up. */
  backlogAtEnd: number;
  /** From the producer's end until everything was committed (held ticks written), or until the harness stopped waiting. */
  settleSeconds: number;
  /** Records still not committed when the harness stopped waiting: 0 = it settled. */
  unsettled: number;
  latency: VisibleLatency;
}

export interface LiveDesignRun {
  design: LiveDesign;
  /** The level policy `ours` ran under (the one suggested for the cell's density). */
  modes?: AppliedModes;
  /** Records on the topic when the producer stopped (the cell's ticks and the markers). */
  produced: number;
  producingSeconds: number;
  stores: LiveStore[];
  /** The stack's CPU from the producer's start until everything was committed. */
  cpu: RunCpu;
}

export interface LiveCellRun {
  cell: SeriesLoad;
  /** Ticks per second the producer was asked for: series × per-series rate. */
  rate: number;
  durationMs: number;
  designs: LiveDesignRun[];
}

export interface LiveReport {
  cells: LiveCellRun[];
  /** Every level's FRESHNESS_BUDGET_MS when the run set one; absent: the workers' defaults. */
  budgetMs?: number;
  /** Stored bytes per tick at the grid's densities, over whole hours. */
  densities: DensityProbeResult;
}

/** What a live grid runs with: the stack, the cells, and how each design's topic and database are made. */
export interface LiveOptions {
  env: BenchEnv;
  kafka: Kafka;
  admin: Admin;
  stack: StackMeter;
  mode: WorkerMode;
  cells: readonly SeriesLoad[];
  durationMs: number;
  /** Every level's FRESHNESS_BUDGET_MS; the workers' defaults when absent. */
  budgetMs?: number;
  markerEveryMs: number;
  seed: number;
  /** A topic of its own for each design of each cell, created and its codec registered. */
  topic: (name: string) => Promise<{ topic: string; codec: TickCodec }>;
  dlqTopic: string;
  database: (name: string) => Promise<BenchDatabase>;
  drop: (db: BenchDatabase) => Promise<void>;
  group: (name: string) => string;
  workerConcurrency?: number;
  logger: Logger;
}
