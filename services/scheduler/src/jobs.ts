import {
  AUTO_SKIP_LEVEL,
  LEVELS,
  POLICY_REFRESH_MS,
  autoSkipBoundary,
  autoSkipDecision,
  floorTo,
  consumedWatermark,
  finalityWatermark,
  partitionsAhead,
  slotEnd,
  slotStart,
  type Level,
  type RetentionPolicy,
} from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import type { SegmentStore } from '@tickertape/segments';
import type { RollupStore } from '@tickertape/store';
import type { Admin } from 'kafkajs';
import { z } from 'zod';
import { consumedBefore, groupPosition } from './consumed.js';
import type { SchedulerEnv } from './env.js';
import type { SchedulerMetrics } from './metrics.js';

/** What every job handler gets: the stores, the clock (injected, never read directly), its config. */
export interface JobContext {
  rollups: RollupStore;
  segments: SegmentStore;
  /** Kafka admin client: finality reads the level groups' progress on the tick topic. */
  kafka: Admin;
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

const HOUR_MS = 3_600_000;

function retentionPolicy(env: SchedulerEnv): RetentionPolicy {
  return {
    retentionMs: env.RETENTION_MS,
    latenessMs: env.MAX_LATENESS_MS,
  };
}

/**
 * How far a level may be final: where the clock puts it (FINALITY_GRACE_MS after a slot's end),
 * held back to what the level's consumer group has read. Slot X may be final once the group has
 * read every record appended before end(X) + grace: any later record carries ticks no older
 * than end(X) + grace − MAX_LATENESS_MS ≥ end(X), so no tick the workers accept reaches a final
 * slot, however far behind a group runs or however late a replay (docs/history.md).
 */
async function consumedMark(ctx: JobContext, level: Level, wall: number, floor: number) {
  const { env, kafka } = ctx;
  const position = await groupPosition(kafka, env.FINALITY_GROUPS[level], env.TOPIC);
  if (position === undefined) return wall;
  return consumedWatermark(level, wall, floor, (boundary) =>
    consumedBefore(kafka, env.TOPIC, position, boundary + env.FINALITY_GRACE_MS),
  );
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
    async run({ rollups, now, env, metrics }) {
      const created: string[] = [];
      for (const level of LEVELS) {
        for (const range of partitionsAhead(level, now(), env.PARTITIONS_AHEAD)) {
          if (await rollups.ensurePartition(range)) created.push(range.name);
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
    async run({ rollups, now, env, metrics, logger }) {
      // A server that cannot hold shells (FerretDB: no ±Infinity): the first tick of each slot
      // creates its bucket, as it would without the job.
      if (!rollups.capabilities.shells) {
        logger.debug(
          { server: rollups.capabilities.server },
          'shells unsupported by the store, skipped',
        );
        return { skipped: 'shells unsupported' };
      }
      const t = now();
      const inserted: Record<string, number> = {};
      // Shells in the form the writers will write (compact or not), none for a skipped metric.
      const policy = await rollups.readLevelPolicy();
      for (const level of env.SHELL_LEVELS) {
        const start = slotEnd(level, slotStart(level, t));
        const active = await rollups.recentSeries(level, t - env.SHELL_ACTIVE_WINDOW_MS, t);
        const count = await rollups.insertShells(
          level,
          active
            .filter((series) => !policy.skipsAt(level, series.metric, start))
            .map((series) => ({ series, start, compact: policy.compacts(level, series.metric) })),
        );
        metrics.shellsInserted.inc({ level }, count);
        inserted[level] = count;
      }
      return { inserted };
    },
  }),
  'auto-skip': defineJob({
    payload: z.object({}),
    every: (env) => env.AUTO_SKIP_EVERY_MS,
    attempts: 3,
    async run({ rollups, now, env, metrics, logger }) {
      const t = now();
      let policy = await rollups.readLevelPolicy();
      // Measured in the hour buckets: every metric the rule touches keeps them in full, so the
      // measure does not depend on whether the minute level is skipped.
      const toMs = floorTo(t, HOUR_MS);
      const densities = env.AUTO_SKIP_MINUTE
        ? await rollups.metricDensities(
            LEVELS[LEVELS.indexOf(AUTO_SKIP_LEVEL) + 1]!,
            toMs - env.AUTO_SKIP_WINDOW_HOURS * HOUR_MS,
            toMs,
          )
        : [];
      const boundary = autoSkipBoundary(t, env.MAX_FUTURE_MS, POLICY_REFRESH_MS);
      const open = policy
        .autoSkips()
        .filter(({ untilMs }) => untilMs === undefined)
        .map(({ metric }) => metric);
      const measured = new Set(densities.map(({ metric }) => metric));
      // Written again, from a boundary as safe as any: with the rule off, every metric it skips;
      // with it on, a pinned one whose span was opened while the pin was stored, measured or not.
      const unmeasured = open
        .filter((metric) => !env.AUTO_SKIP_MINUTE || (policy.pins(metric) && !measured.has(metric)))
        .map((metric) => ({ metric, perMinute: null, decision: 'keep' as const }));
      const decisions = [
        ...densities.map(({ metric, perMinute }) => ({
          metric,
          perMinute,
          decision: autoSkipDecision(policy, metric, perMinute),
        })),
        ...unmeasured,
      ];
      const changes: {
        metric: string;
        change: 'skip' | 'keep';
        perMinute: number | null;
        from: string;
      }[] = [];
      for (const { metric, perMinute, decision } of decisions) {
        if (decision === 'none') continue;
        policy = await rollups.changeAutoSkip(
          decision === 'skip'
            ? { kind: 'skip', metric, fromMs: boundary }
            : { kind: 'keep', metric, untilMs: boundary },
          t,
        );
        metrics.autoSkipChanges.inc({ level: AUTO_SKIP_LEVEL, change: decision });
        const from = new Date(boundary).toISOString();
        changes.push({ metric, change: decision, perMinute, from });
        logger.info(
          { metric, level: AUTO_SKIP_LEVEL, perMinute, from },
          decision === 'skip'
            ? 'sparse metric: the minute level skips it from then on (its minutes stay in the hour buckets)'
            : !env.AUTO_SKIP_MINUTE
              ? 'AUTO_SKIP_MINUTE is off: the minute level writes the metric again from then on'
              : policy.pins(metric)
                ? 'metric pinned by the operator (levels keep minute): the minute level writes it again from then on'
                : 'metric grew denser: the minute level writes it again from then on',
        );
      }
      // Spans whose minutes retention has dropped no longer keep readers off the minute level.
      const forgetBefore = t - env.RETENTION_MS[AUTO_SKIP_LEVEL] - env.MAX_LATENESS_MS;
      if (policy.withoutAutoSkipsBefore(forgetBefore) !== policy)
        policy = await rollups.changeAutoSkip({ kind: 'forget', beforeMs: forgetBefore }, t);
      const skipping = policy.autoSkips().filter(({ untilMs }) => untilMs === undefined).length;
      metrics.autoSkipped.set({ level: AUTO_SKIP_LEVEL }, skipping);
      return { changes, skipping };
    },
  }),
  finalize: defineJob({
    payload: z.object({}),
    every: (env) => env.FINALIZE_EVERY_MS,
    attempts: 3,
    async run(ctx) {
      const t = ctx.now();
      const current = (await ctx.rollups.readWatermarks()).finalBefore;
      // No topic yet: no record any worker could apply, so the clock alone decides.
      const topicExists = (await ctx.kafka.listTopics()).includes(ctx.env.TOPIC);
      const marks = {} as Record<Level, number>;
      const heldBack: Record<string, string> = {};
      for (const level of LEVELS) {
        const wall = finalityWatermark(level, t, ctx.env.FINALITY_GRACE_MS);
        marks[level] = topicExists
          ? await consumedMark(ctx, level, wall, current[level] ?? 0)
          : wall;
        ctx.metrics.finalityHeldBack.set({ level }, Math.max(0, wall - marks[level]) / 1000);
        if (marks[level] < wall) heldBack[level] = new Date(wall).toISOString();
      }
      await ctx.rollups.advanceWatermarks(marks, t);
      for (const level of LEVELS) {
        // Watermarks never move back: the stored one wins over a lower mark this run.
        const mark = Math.max(current[level] ?? 0, marks[level]);
        ctx.metrics.finalityWatermark.set({ level }, mark / 1000);
      }
      return {
        watermarks: Object.fromEntries(
          Object.entries(marks).map(([level, mark]) => [level, new Date(mark).toISOString()]),
        ),
        // Where the clock alone would have put them, for levels whose group is behind.
        heldBack,
      };
    },
  }),
  retention: defineJob({
    payload: z.object({ dryRun: z.boolean().optional() }),
    every: (env) => env.RETENTION_EVERY_MS,
    attempts: 3,
    async run({ rollups, segments: segmentStore, now, env, metrics, logger }, payload) {
      const dryRun = payload.dryRun ?? env.RETENTION_DRY_RUN;
      // One clock reading for both stores, so a run judges rollups and segments at the same instant.
      const t = now();
      const result = await rollups.applyRetention(t, retentionPolicy(env), dryRun);
      metrics.partitionsDropped.inc(result.dropped.length);
      const wouldDrop = result.verdicts.filter((v) => v.drop).map((v) => v.range.name);
      const segments = await segmentStore.applyRetention(
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
