import { z } from 'zod';

/**
 * What one benchmark run does. Two presets: `smoke` (a couple of thousand ticks, for CI: it
 * proves the harness works end to end, never a speed) and `full` (the published figures). Any
 * field can be overridden from the command line; the result is checked once, here.
 */
export const PROFILES = ['smoke', 'full'] as const;
export type ProfileChoice = (typeof PROFILES)[number];

const seriesLoad = z.object({
  /** Series (symbols, sensors) in the profile. */
  series: z.number().int().positive(),
  /** Ticks per series per second of event time; fractional rates space readings out. */
  perSecond: z.number().positive().max(1000),
});

export const benchSettingsSchema = z
  .object({
    profile: z.enum(PROFILES),
    /** Partitions of the benchmark topic. */
    partitions: z.number().int().min(1).max(64),
    seed: z.number().int(),
    stocks: seriesLoad,
    traffic: seriesLoad,
    /** Event-time span of the tick set; it ends a couple of minutes before the run starts. */
    durationMs: z
      .number()
      .int()
      // At least 10 minutes: the read side's window needs 5 minutes each side of an hour.
      .min(10 * 60_000)
      // The workers dead-letter ticks older than 6 h (MAX_LATENESS_MS): stay well inside it.
      .max(4 * 3_600_000),
    /** The workers' PARTITIONS_CONCURRENTLY; absent: their default (what users run). */
    workerConcurrency: z.number().int().min(1).max(64).optional(),
    /** A and B are measured this many times, alternately; the median round is reported. */
    rounds: z.number().int().min(1).max(9),
    /** C (one awaited insertOne per tick) stops after this long or this many ticks. */
    naiveCapMs: z.number().int().positive(),
    naiveCapTicks: z.number().int().positive(),
    /** Repetitions of each rollup read, for p50/p99. */
    readRuns: z.number().int().min(1),
    /** Time allowed for the repetitions of each read on the per-tick collection (at least 2 run). */
    rawReadBudgetMs: z.number().int().positive(),
    /** Produce → visible: how long to produce at half of B's rate, and how often a marker. */
    latencyMs: z.number().int().positive(),
    markerEveryMs: z.number().int().positive(),
    /**
     * The live grid: each cell publishes `series` × `perSecond` ticks/s for `liveDurationMs`
     * while ours (the workers at their defaults), D and E consume it, one design after another.
     */
    liveCells: z.array(seriesLoad).min(1),
    liveDurationMs: z.number().int().min(1000),
    /** Every level's FRESHNESS_BUDGET_MS in the live grid; absent: the workers' defaults. */
    liveBudgetMs: z.number().int().nonnegative().optional(),
    /** `dist`: the built workers (`node dist/main.js`); `source`: src through tsx (tests, no build). */
    workers: z.enum(['dist', 'source']),
    /**
     * Profile one extra, unmeasured round of B's workers (`node --cpu-prof`) and report where
     * their CPU goes by category.
     */
    cpuProfile: z.boolean(),
    /** Leave topics, databases and the subject behind for inspection. */
    keep: z.boolean(),
    /** Where the Markdown report goes (its chart beside it); undefined: print only. */
    docPath: z.string().min(1).optional(),
  })
  .check((ctx) => {
    if (ctx.value.markerEveryMs >= ctx.value.latencyMs) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value.markerEveryMs,
        path: ['markerEveryMs'],
        message: 'markers must come more often than the latency phase lasts',
      });
    }
  });

export type BenchSettings = z.output<typeof benchSettingsSchema>;

const MINUTE = 60_000;

export const PRESETS: Readonly<Record<ProfileChoice, Omit<BenchSettings, 'docPath'>>> = {
  smoke: {
    profile: 'smoke',
    partitions: 4,
    seed: 7,
    // 2 × 1/s × 600 s + 50 × 0.04/s × 600 s = 2,400 ticks; 50 sensors for the seed's question.
    stocks: { series: 2, perSecond: 1 },
    traffic: { series: 50, perSecond: 0.04 },
    durationMs: 10 * MINUTE,
    rounds: 1,
    // Generous: on a loaded CI machine 2,400 awaited inserts once took more than 10 s.
    naiveCapMs: 60_000,
    naiveCapTicks: 1_000_000,
    readRuns: 3,
    rawReadBudgetMs: 2_000,
    latencyMs: 2_000,
    markerEveryMs: 200,
    // One small cell, budgets of 1 s so the hour level's tail does not hold CI for a minute.
    liveCells: [{ series: 100, perSecond: 5 }],
    liveDurationMs: 8_000,
    liveBudgetMs: 1_000,
    workers: 'dist',
    // A profiled round costs a worker start and a pass over the topic: not worth it in CI.
    cpuProfile: false,
    keep: false,
  },
  full: {
    profile: 'full',
    partitions: 4,
    seed: 7,
    // 20 symbols at 2 ticks/s and 100 sensors at one reading per 4 s over 30 minutes: 117,000
    // ticks, sized so the whole run stays within about 10 minutes on the 2-core machine.
    stocks: { series: 20, perSecond: 2 },
    traffic: { series: 100, perSecond: 0.25 },
    durationMs: 30 * MINUTE,
    rounds: 3,
    naiveCapMs: 20_000,
    naiveCapTicks: 1_000_000,
    // p99 of 300 runs is the third-slowest run; of 100 it was the second-slowest, mostly noise.
    readRuns: 300,
    rawReadBudgetMs: 15_000,
    latencyMs: 20_000,
    markerEveryMs: 100,
    // The issue's grid: dense, fast, sparse and once-a-minute series, a minute each.
    liveCells: [
      { series: 10_000, perSecond: 1 },
      { series: 500, perSecond: 10 },
      { series: 10_000, perSecond: 0.1 },
      { series: 20_000, perSecond: 1 / 60 },
    ],
    liveDurationMs: MINUTE,
    workers: 'dist',
    cpuProfile: true,
    keep: false,
  },
};

/** The preset with the given overrides applied, checked; throws a ZodError naming the bad field. */
export function resolveSettings(
  profile: ProfileChoice,
  overrides: Partial<BenchSettings> = {},
): BenchSettings {
  const defined = Object.fromEntries(
    Object.entries(overrides).filter(([, value]) => value !== undefined),
  );
  return benchSettingsSchema.parse({ ...PRESETS[profile], ...defined });
}
