import type { Level } from '@tickertape/buckets';
import { MODEL_LEVELS } from '@tickertape/capacity';
import type { Logger } from '@tickertape/logger';
import type { Admin } from 'kafkajs';
import type { BenchEnv } from './env.js';
import type { RunMeter } from './stack-cpu.js';

import {
  waitCommitted,
  WorkerProcess,
  type WorkerMode,
  type WorkerSpec,
} from './worker-process.js';

export {
  childProcessEnv,
  parseMetrics,
  waitCommitted,
  WorkerProcess,
  type WorkerMode,
  type WorkerSpec,
} from './worker-process.js';

export interface LevelRun {
  level: Level;
  groupId: string;
  /** Group join to the commit of the topic's end offsets. */
  seconds: number;
  consumed: number;
  applied: number;
  deadLetters: number;
  flushes: number;
  buckets: number;
  ops: number;
  bulkWrites: number;
  conflicts: number;
  /** process_cpu_seconds_total at the end minus at the join. */
  cpuSeconds: number;
}

export const LEVELS_RUN: readonly Level[] = MODEL_LEVELS;

/**
 * The catch-up rounds (B, F, the profiled round) and the produce → visible step at half of B's
 * rate run the workers with FRESHNESS_BUDGET_MS 0: every fetched batch written at once, as
 * before budgets. A topic loaded in advance is consumed as fast as it can be either way, and a
 * budget would only make each round wait out its tail (60 s at the hour level); the live grid
 * runs the defaults.
 */
export const CATCH_UP_VARS: Readonly<Record<string, string>> = { FRESHNESS_BUDGET_MS: '0' };

function levelRun(
  spec: WorkerSpec,
  seconds: number,
  before: Map<string, number>,
  after: Map<string, number>,
): LevelRun {
  const counter = (name: string) => after.get(name) ?? 0;
  return {
    level: spec.level,
    groupId: spec.groupId,
    seconds,
    consumed: counter('tickertape_ticks_consumed_total'),
    applied: counter('tickertape_ticks_applied_total'),
    deadLetters: counter('tickertape_dead_letters_total'),
    flushes: counter('tickertape_flushes_total'),
    buckets: counter('tickertape_buckets_written_total'),
    ops: counter('tickertape_db_operations_total'),
    bulkWrites: counter('tickertape_bulk_writes_total'),
    conflicts: counter('tickertape_replay_conflicts_total'),
    cpuSeconds:
      counter('process_cpu_seconds_total') - (before.get('process_cpu_seconds_total') ?? 0),
  };
}

export interface WorkerRunOptions {
  env: BenchEnv;
  admin: Admin;
  topic: string;
  dlqTopic: string;
  database: string;
  groupPrefix: string;
  mode: WorkerMode;
  nodeArgs?: readonly string[];
  /** More node arguments for one level's process (its own profile directory). */
  levelNodeArgs?: (level: Level) => readonly string[];
  partitionsConcurrently?: number;
  /** More environment for every worker (see WorkerSpec.vars). */
  vars?: Readonly<Record<string, string>>;
  /** Started once both workers have joined, stopped once both have committed the topic. */
  meter?: RunMeter;
  logger: Logger;
}

/** CLOCK_MONOTONIC in µs: the clock of `node --cpu-prof` profiles, shared by every process. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** One level's measured run on the monotonic clock, to cut its CPU profile to it. */
export interface LevelWindow {
  level: Level;
  fromUs: number;
  toUs: number;
}

/** Starts one minute and one hour worker on their own groups; `stop` ends both. */
export async function startLevels(options: WorkerRunOptions): Promise<WorkerProcess[]> {
  const workers = LEVELS_RUN.map((level) =>
    WorkerProcess.start(
      {
        level,
        groupId: `${options.groupPrefix}-${level}`,
        database: options.database,
        topic: options.topic,
        dlqTopic: options.dlqTopic,
        ...(options.partitionsConcurrently === undefined
          ? {}
          : { partitionsConcurrently: options.partitionsConcurrently }),
        ...(options.vars === undefined ? {} : { vars: options.vars }),
      },
      options.env,
      options.mode,
      [...(options.nodeArgs ?? []), ...(options.levelNodeArgs?.(level) ?? [])],
    ),
  );
  try {
    await Promise.all(workers.map((w) => w.ready()));
  } catch (err) {
    await Promise.all(workers.map((w) => w.stop()));
    throw err;
  }
  return workers;
}

/**
 * B (and F): the real workers, one process per level, consume the loaded topic from the start;
 * each level's clock runs from its group join to its commit of the end offsets.
 */
export async function runLevels(
  options: WorkerRunOptions,
): Promise<{ runs: LevelRun[]; windows: LevelWindow[] }> {
  const workers = await startLevels(options);
  try {
    const fromUs = monotonicUs();
    options.meter?.start();
    const timings = await Promise.all(
      workers.map(async (worker) => {
        const { joinedAt } = await worker.ready();
        const before = await worker.metrics();
        const doneAt = await Promise.race([
          waitCommitted(options.admin, worker.spec.groupId, options.topic, 15 * 60_000),
          worker.died,
        ]);
        const window = { level: worker.spec.level, fromUs, toUs: monotonicUs() };
        return { worker, before, seconds: (doneAt - joinedAt) / 1000, window };
      }),
    );
    options.meter?.stop();
    const runs: LevelRun[] = [];
    for (const { worker, before, seconds } of timings) {
      runs.push(levelRun(worker.spec, seconds, before, await worker.metrics()));
    }
    options.logger.debug({ runs }, 'levels consumed');
    return { runs, windows: timings.map((t) => t.window) };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}
