import {
  checkSecurity,
  durationMs,
  flag,
  kafkaShape,
  logLevel,
  mongoDatabase,
  parseEnv,
  positiveInt,
  stackShape,
  type EnvSource,
} from '@tickertape/config';
import { LEVELS, LEVEL_SPECS, isLevel, type Level } from '@tickertape/buckets';
import { groupIdOf, SEGMENT_GROUP, TICK_TOPIC, TIME_WINDOW_DEFAULTS } from '@tickertape/topology';
import { z } from 'zod';

const DAY = 86_400_000;
const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: DAY,
};
const DURATION = /^(\d+)(ms|s|m|h|d)?$/;

/** `7d`, `36h`, `90m`, `30s`, `500ms` or bare milliseconds; `undefined` for anything else. */
export function durationText(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2] ?? 'ms']! : undefined;
}

/** The older per-level form of RETENTION, one variable per level: RETENTION_MINUTE_MS… */
const legacyRetentionVar = (level: Level) => `RETENTION_${level.toUpperCase()}_MS`;

/** What RETENTION_<LEVEL>_MS said, if it was given (its keys are made from the levels). */
const legacyRetentionOf = (env: object, level: Level): number | undefined =>
  (env as Readonly<Record<string, number | undefined>>)[legacyRetentionVar(level)];

const legacyRetention = Object.fromEntries(
  LEVELS.map((level) => [legacyRetentionVar(level), durationMs().optional()]),
) as Record<string, z.ZodOptional<ReturnType<typeof durationMs>>>;

/** The scheduler's whole configuration, parsed once at start. */
export const schedulerEnvSchema = z
  .object({
    /**
     * The brokers (with TLS/SASL settings, docs/security.md): finality waits for each level's
     * consumer group to have read the tick topic past a slot, not only for the clock.
     */
    ...kafkaShape,
    /** The tick topic the workers read. */
    TOPIC: z.string().min(1).default(TICK_TOPIC),
    /**
     * The consumer group of each level whose progress holds its finality back, as
     * `level=group,…`; a level left out uses the workers' default, tickertape-rollup-<level>.
     */
    FINALITY_GROUPS: z
      .string()
      .default('')
      .transform((text, ctx) => {
        const groups = Object.fromEntries(
          LEVELS.map((level) => [level, groupIdOf(level)]),
        ) as Record<Level, string>;
        for (const part of text.split(',').map((p) => p.trim())) {
          if (part === '') continue;
          const [level, group] = part.split('=').map((p) => p.trim());
          if (!level || !group || !isLevel(level)) {
            ctx.addIssue({
              code: 'custom',
              message: `"${part}" is not <${LEVELS.join('|')}>=<consumer group>`,
            });
            return z.NEVER;
          }
          groups[level] = group;
        }
        return groups;
      }),
    /** The segment store's consumer group (its workers' GROUP_ID), for the lag series. */
    SEGMENT_GROUP: z.string().min(1).default(SEGMENT_GROUP),
    /**
     * How often each store's consumer group lag is sampled for /metrics
     * (tickertape_group_lag_records/_seconds, tickertape_group_members).
     */
    GROUP_LAG_EVERY_MS: positiveInt().default(15_000),
    MONGODB_URI: stackShape.MONGODB_URI,
    REDIS_URL: stackShape.REDIS_URL,
    /** Database holding the rollup partitions (the workers' MONGODB_DATABASE). */
    MONGODB_DATABASE: mongoDatabase().default('tickertape'),
    /** BullMQ queue and key prefix; replicas sharing them share the schedule. */
    SCHEDULER_QUEUE: z.string().min(1).default('tickertape-scheduler'),
    BULLMQ_PREFIX: z.string().min(1).default('bull'),
    /** Partitions created ahead of the current one, per level. */
    PARTITIONS_AHEAD: positiveInt().default(2),
    ENSURE_PARTITIONS_EVERY_MS: positiveInt().default(10 * 60_000),
    FINALIZE_EVERY_MS: positiveInt().default(30_000),
    RETENTION_EVERY_MS: positiveInt().default(3_600_000),
    /**
     * Levels whose next slot gets preallocated shell buckets for recently active series, comma
     * separated; empty turns shells off. Shells are an optimisation, never a requirement.
     */
    SHELL_LEVELS: z
      .string()
      .default('minute,hour')
      .transform((text) =>
        text
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== ''),
      )
      .pipe(z.array(z.enum(LEVELS))),
    SHELLS_EVERY_MS: positiveInt().default(20_000),
    /** A series is "active" if it has a bucket of the level starting this recently. */
    SHELL_ACTIVE_WINDOW_MS: positiveInt().default(15 * 60_000),
    /**
     * Skip the minute level by default for metrics at one tick per series a minute or less, and
     * write it again when they grow denser (the `auto-skip` job; docs/data-layout.md, "The
     * level policy"). Off: the job writes every metric it skips at the minute level again (from a
     * safe boundary); only the operator's `tickertape levels skip` skips a level.
     */
    AUTO_SKIP_MINUTE: flag().default(true),
    AUTO_SKIP_EVERY_MS: positiveInt().default(5 * 60_000),
    /** Whole hours of hour buckets the job measures each metric's ticks per minute over. */
    AUTO_SKIP_WINDOW_HOURS: positiveInt().default(1),
    /**
     * The workers' bound on ticks ahead of their record's time: an automatic change applies from
     * the first minute no tick read before every worker knows it can reach.
     */
    MAX_FUTURE_MS: durationMs().default(TIME_WINDOW_DEFAULTS.maxFutureMs),
    /** The workers' lateness bound: no partition a late tick may reach is dropped. */
    MAX_LATENESS_MS: durationMs().default(TIME_WINDOW_DEFAULTS.maxLatenessMs),
    /**
     * A slot is final once it ended this long ago and the level's group has read every record
     * appended before its end plus this. At least MAX_LATENESS_MS, so no tick the workers still
     * accept can fall into a final slot (docs/history.md).
     */
    FINALITY_GRACE_MS: durationMs().default(TIME_WINDOW_DEFAULTS.maxLatenessMs),
    /**
     * How long each level keeps a partition after its end, as `level=duration,…` (`minute=7d,
     * hour=90d`; units ms, s, m, h, d); a level left out keeps its default from the table of
     * levels (minute 7 d, hour 90 d, day 5 × 365 d). `RETENTION_<LEVEL>_MS` (milliseconds) still
     * sets one level; naming a level both ways is refused.
     */
    RETENTION: z
      .string()
      .default('')
      .transform((text, ctx) => {
        const given: Partial<Record<Level, number>> = {};
        for (const part of text.split(',').map((p) => p.trim())) {
          if (part === '') continue;
          const [level, duration] = part.split('=').map((p) => p.trim());
          const ms = duration === undefined ? undefined : durationText(duration);
          if (!level || !isLevel(level) || ms === undefined) {
            ctx.addIssue({
              code: 'custom',
              message: `"${part}" is not <${LEVELS.join('|')}>=<duration such as 7d, 36h or 90m>`,
            });
            return z.NEVER;
          }
          given[level] = ms;
        }
        return given;
      }),
    ...legacyRetention,
    /**
     * How long the segment store keeps raw points, counted from the end of their UTC day: a
     * `segments_<YYYYMMDD>` collection goes once its day ended this long ago (and longer ago
     * than MAX_LATENESS_MS). Exact points cost far more space than rollups, so the default
     * matches the minute level's: past it, charts read the rollups.
     */
    RETENTION_SEGMENTS_MS: durationMs().default(7 * DAY),
    /** List what retention would drop, drop nothing. */
    RETENTION_DRY_RUN: flag().default(false),
    /** How long one job may run before it counts as failed. */
    JOB_TIMEOUT_MS: positiveInt().default(5 * 60_000),
    HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(9410),
    LOG_LEVEL: logLevel(),
    STARTUP_TIMEOUT_MS: positiveInt().default(10_000),
  })
  .check((ctx) => {
    for (const level of LEVELS) {
      const legacy = legacyRetentionOf(ctx.value, level);
      if (legacy !== undefined && ctx.value.RETENTION[level] !== undefined)
        ctx.issues.push({
          code: 'custom',
          input: legacy,
          path: [legacyRetentionVar(level)],
          message: `RETENTION sets ${level} already: give one of the two`,
        });
    }
    if (ctx.value.FINALITY_GRACE_MS < ctx.value.MAX_LATENESS_MS) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value.FINALITY_GRACE_MS,
        path: ['FINALITY_GRACE_MS'],
        message: `must be at least MAX_LATENESS_MS (${ctx.value.MAX_LATENESS_MS}), or a final bucket could still change`,
      });
    }
  })
  .check(checkSecurity);

export type SchedulerEnv = z.output<typeof schedulerEnvSchema> & {
  /** Each level's retention: RETENTION, else RETENTION_<LEVEL>_MS, else the table's default. */
  RETENTION_MS: Readonly<Record<Level, number>>;
};

export function parseSchedulerEnv(source: EnvSource): SchedulerEnv {
  const env = parseEnv(schedulerEnvSchema, source);
  const retention = Object.fromEntries(
    LEVELS.map((level) => [
      level,
      env.RETENTION[level] ?? legacyRetentionOf(env, level) ?? LEVEL_SPECS[level].retentionMs,
    ]),
  ) as Record<Level, number>;
  return { ...env, RETENTION_MS: retention };
}
