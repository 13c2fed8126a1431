import {
  LEVELS,
  finalityWatermark,
  partitionsAhead,
  shellDocument,
  slotEnd,
  slotStart,
  type Level,
  type RetentionPolicy,
} from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import {
  advanceWatermarks,
  applyRetention,
  ensurePartition,
  insertShells,
  recentSeries,
} from '@tickertape/store';
import type { Db } from 'mongodb';
import { z } from 'zod';
import type { SchedulerEnv } from './env.js';
import type { SchedulerMetrics } from './metrics.js';
import { applySegmentRetention } from './segment-retention.js';

/** What every job handler gets: the database, the clock (injected, never read directly), its config. */
export interface JobContext {
  db: Db;
  now: () => number;
  env: SchedulerEnv;
  logger: Logger;
  metrics: SchedulerMetrics;
}

export interface JobDefinition<P extends z.ZodType = z.ZodType> {
  /** Checked before the handler runs; a bad payload fails the job without a retry. */
  payload: P;
  /** Milliseconds between runs, from the env. */
  every: (env: SchedulerEnv) => number;
  attempts: number;
  run: (ctx: JobContext, payload: z.output<P>) => Promise<Record<string, unknown>>;
}

/** Keeps each entry's payload type for its handler while the catalog stays one table. */
function defineJob<P extends z.ZodType>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

function retentionPolicy(env: SchedulerEnv): RetentionPolicy {
  return {
    retentionMs: {
      minute: env.RETENTION_MINUTE_MS,
      hour: env.RETENTION_HOUR_MS,
      day: env.RETENTION_DAY_MS,
    },
    latenessMs: env.MAX_LATENESS_MS,
  };
}

/**
 * The job catalog: every scheduled job, keyed by name, with its payload schema, schedule and
 * retries. The scheduler registers one BullMQ job scheduler per entry.
 */
export const JOBS = {
  'ensure-partitions': defineJob({
    payload: z.object({}),
    every: (env) => env.ENSURE_PARTITIONS_EVERY_MS,
    attempts: 5,
    async run({ db, now, env, metrics }) {
      const created: string[] = [];
      for (const level of LEVELS) {
        for (const range of partitionsAhead(level, now(), env.PARTITIONS_AHEAD)) {
          if (await ensurePartition(db, range)) created.push(range.name);
        }
      }
      metrics.partitionsCreated.inc(created.length);
      return { created };
    },
  }),
  'preallocate-shells': defineJob({
    payload: z.object({}),
    every: (env) => env.SHELLS_EVERY_MS,
    attempts: 3,
    async run({ db, now, env, metrics }) {
      const t = now();
      const inserted: Record<string, number> = {};
      for (const level of env.SHELL_LEVELS) {
        const next = slotEnd(level, slotStart(level, t));
        const active = await recentSeries(db, level, t - env.SHELL_ACTIVE_WINDOW_MS, t);
        const count = await insertShells(
          db,
          level,
          active.map((series) => shellDocument(level, series, next)),
        );
        metrics.shellsInserted.inc({ level }, count);
        inserted[level] = count;
      }
      return { inserted };
    },
  }),
  finalize: defineJob({
    payload: z.object({}),
    every: (env) => env.FINALIZE_EVERY_MS,
    attempts: 3,
    async run({ db, now, env }) {
      const t = now();
      const marks = Object.fromEntries(
        LEVELS.map((level) => [level, finalityWatermark(level, t, env.FINALITY_GRACE_MS)]),
      ) as Record<Level, number>;
      await advanceWatermarks(db, marks, t);
      return {
        watermarks: Object.fromEntries(
          Object.entries(marks).map(([level, mark]) => [level, new Date(mark).toISOString()]),
        ),
      };
    },
  }),
  retention: defineJob({
    payload: z.object({ dryRun: z.boolean().optional() }),
    every: (env) => env.RETENTION_EVERY_MS,
    attempts: 3,
    async run({ db, now, env, metrics, logger }, payload) {
      const dryRun = payload.dryRun ?? env.RETENTION_DRY_RUN;
      // One clock reading for both stores, so a run judges rollups and segments at the same instant.
      const t = now();
      const result = await applyRetention(db, t, retentionPolicy(env), dryRun);
      metrics.partitionsDropped.inc(result.dropped.length);
      const wouldDrop = result.verdicts.filter((v) => v.drop).map((v) => v.range.name);
      const segments = await applySegmentRetention(
        db,
        t,
        { retentionMs: env.RETENTION_SEGMENTS_MS, latenessMs: env.MAX_LATENESS_MS },
        dryRun,
      );
      metrics.segmentDaysDropped.inc(segments.dropped.length);
      metrics.segmentDaysExpired.set(segments.wouldDrop.length - segments.dropped.length);
      if (wouldDrop.length > 0 || segments.wouldDrop.length > 0)
        logger.info({ dryRun, wouldDrop, dropped: result.dropped, segments }, 'retention');
      return { dryRun, dropped: result.dropped, wouldDrop, segments };
    },
  }),
};

export type JobName = keyof typeof JOBS;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];
