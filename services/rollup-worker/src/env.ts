import {
  checkSecurity,
  durationMs,
  kafkaShape,
  logLevel,
  mongoDatabase,
  parseEnv,
  positiveInt,
  registryShape,
  stackShape,
  type EnvSource,
} from '@tickertape/config';
import { LEVELS } from '@tickertape/buckets';
import {
  DEAD_LETTER_TOPIC,
  FETCH_DEFAULTS,
  FRESHNESS_BUDGET_DEFAULTS,
  HOLD_DEFAULTS,
  STORES,
  TICK_TOPIC,
  TIME_WINDOW_DEFAULTS,
  type Store,
} from '@tickertape/topology';
import { z } from 'zod';

/** What `ROLLUP_LEVEL` may name: a rollup level, or the segment store of exact raw points. */
export type WorkerMode = Store;

/**
 * The most points a segment may hold. A segment is one BSON document, and MongoDB refuses a
 * document over 16 MiB (a write the worker would retry forever). The widest point a valid tick
 * makes is 64 numeric fields named with 64 characters of 3 UTF-8 bytes each: about 13 KB per
 * point (test/unit/env.test.ts measures it with the driver's BSON). 1000 such points are 13 MB,
 * plus a few hundred KB at most of series key, tags and `last` (a tick is at most 64 KiB), so
 * every series stays under 16 MiB. 10 000 fits narrow series only: 64 fields with four-letter
 * names make 9 MB, the widest 130 MB.
 */
export const SEGMENT_MAX_POINTS_LIMIT = 1000;

/** The rollup worker's whole configuration, parsed once at start. */
export const workerEnvSchema = z
  .object({
    /** Brokers and registry with their TLS, SASL and basic-auth settings (docs/security.md). */
    ...kafkaShape,
    ...registryShape,
    MONGODB_URI: stackShape.MONGODB_URI,
    /** Database holding the rollup partitions. */
    MONGODB_DATABASE: mongoDatabase().default('tickertape'),
    /**
     * The level this process rolls up (`minute`, `hour`, `day`), or `segments`: the segment store
     * of exact raw points. Run one process (or several replicas) per value.
     */
    ROLLUP_LEVEL: z.enum(STORES),
    /**
     * Consumer group; defaults to tickertape-rollup-<level>, or tickertape-segments, so each level
     * and the segment store replay on their own.
     */
    GROUP_ID: z.string().min(1).optional(),
    TOPIC: z.string().min(1).default(TICK_TOPIC),
    DLQ_TOPIC: z.string().min(1).default(DEAD_LETTER_TOPIC),
    /**
     * Every level sees every bad record; only the workers of this level dead-letter them, so each
     * bad record lands in the DLQ once. The others (and the segment workers, whatever this says)
     * count and skip. The finest level by default.
     */
    DLQ_OWNER_LEVEL: z.enum(LEVELS).default(LEVELS[0]),
    /** Tick schema version this worker reads into (it decodes any registered version). */
    TICK_SCHEMA_VERSION: z.coerce
      .number()
      .pipe(z.union([z.literal(1), z.literal(2)]))
      .default(2),
    /**
     * Most records one flush holds: a partition holding this many is written before its freshness
     * budget runs out (a fetched batch larger than this is written in several flushes).
     */
    FLUSH_MAX_TICKS: positiveInt().default(HOLD_DEFAULTS.maxTicks),
    /**
     * How long a consumed tick may wait before it is written: the staleness this level's newest
     * buckets may have. The worker holds each partition's ticks across fetches until the oldest
     * has waited this long, so one update per bucket absorbs every tick of that window; 0 writes
     * each fetched batch at once. Defaults by level (DEFAULT_FRESHNESS_BUDGET_MS): minute 5 s,
     * hour 60 s, day 60 s, segments 0. What is held is uncommitted: a crash consumes it again.
     */
    FRESHNESS_BUDGET_MS: durationMs().max(3_600_000).optional(),
    /**
     * Estimated heap all held ticks of this worker may take; past it the largest holds are written
     * early (tickertape_held_bytes in /metrics).
     */
    HELD_MAX_BYTES: positiveInt().default(HOLD_DEFAULTS.maxBytes),
    /**
     * Kafka partitions this process flushes at the same time (kafkajs' partitionsConsumedConcurrently).
     * A partition's records are still applied one flush after another, in order; with more than one,
     * the database round trips of different partitions overlap.
     */
    PARTITIONS_CONCURRENTLY: z.coerce.number().int().min(1).max(64).default(1),
    /** A fetch waits this long for FLUSH_MIN_BYTES before a flush of whatever arrived. */
    FLUSH_MAX_WAIT_MS: durationMs().default(FETCH_DEFAULTS.maxWaitMs),
    FLUSH_MIN_BYTES: positiveInt().default(FETCH_DEFAULTS.minBytes),
    /**
     * Ticks whose event time is older than their Kafka record's time by more than this go to the
     * DLQ as TOO_LATE (history is loaded with `tickertape backfill`, docs/history.md).
     */
    MAX_LATENESS_MS: durationMs().default(TIME_WINDOW_DEFAULTS.maxLatenessMs),
    /** Ticks further ahead of their record's time than this go to the DLQ as TIMESTAMP_OUT_OF_RANGE. */
    MAX_FUTURE_MS: durationMs().default(TIME_WINDOW_DEFAULTS.maxFutureMs),
    /**
     * How long the group waits for a silent member before giving its partitions to others: after
     * a crash, its uncommitted work is redone this much later. The broker allows 6 s at least.
     */
    KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6000).default(30_000),
    /**
     * `segments` only: points per segment at most (a segment also ends with its UTC day). More
     * points per document means fewer documents per read and larger rewrites per append; see
     * SEGMENT_MAX_POINTS_LIMIT for the upper bound.
     */
    SEGMENT_MAX_POINTS: z.coerce.number().int().min(1).max(SEGMENT_MAX_POINTS_LIMIT).default(500),
    /**
     * `segments` only: comma-separated metrics whose points are stored only when a value changed
     * (counters and states that repeat for hours); the skips are counted. Empty: store every point.
     */
    SEGMENT_WRITE_ON_CHANGE: z
      .string()
      .default('')
      .transform(
        (text) =>
          new Set(
            text
              .split(',')
              .map((metric) => metric.trim())
              .filter((metric) => metric !== ''),
          ) as ReadonlySet<string>,
      ),
    /** Port of /metrics and /health; 0 picks a free one. */
    HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(9400),
    LOG_LEVEL: logLevel(),
    STARTUP_TIMEOUT_MS: positiveInt().default(10_000),
    /**
     * Fault injection for crash tests: after this many flushes have been written, the process
     * kills itself with SIGKILL before committing the offsets of the last one.
     */
    FAULT_CRASH_AFTER_WRITES: positiveInt().optional(),
  })
  .check(checkSecurity);

export type WorkerEnv = z.output<typeof workerEnvSchema>;

/**
 * Each level's freshness budget when FRESHNESS_BUDGET_MS is not set: what its readers can wait
 * for and what it buys in writes (docs/freshness.md has the measured trade). The query library
 * stitches levels, so a question about the last minutes reads the minute level.
 */
export const DEFAULT_FRESHNESS_BUDGET_MS: Readonly<Record<WorkerMode, number>> =
  FRESHNESS_BUDGET_DEFAULTS;

/** The budget this worker runs with. */
export function freshnessBudgetMs(env: WorkerEnv): number {
  return env.FRESHNESS_BUDGET_MS ?? DEFAULT_FRESHNESS_BUDGET_MS[env.ROLLUP_LEVEL];
}

export function parseWorkerEnv(source: EnvSource): WorkerEnv {
  return parseEnv(workerEnvSchema, source);
}
