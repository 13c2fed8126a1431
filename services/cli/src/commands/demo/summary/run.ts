import { floorTo, LEVELS, type Level } from '@tickertape/buckets';
import { consumerLag, NO_PROGRESS, type Progress, type StartProgress } from '@tickertape/clients';
import { TickertapeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { isUnknownName, lastMinutes, RollupReader, type Candle } from '@tickertape/query';
import type { RollupStore } from '@tickertape/store';
import type { Admin } from 'kafkajs';
import { openKafka, openStores } from '../../../connect.js';
import type { CliEnv } from '../../../env.js';
import { describeResolution } from '../../../format/answers.js';

/** Counters scraped from one worker's /metrics. */
export interface WorkerFigures {
  level: string;
  url: string;
  ticksConsumed: number;
  ticksApplied: number;
  bucketsWritten: number;
  dbOperations: number;
  flushes: number;
  deadLetters: number;
}

/** What the reads cost, for the report: discovery first, then the answers. */
export interface Examined {
  /** Documents read to find the series. */
  discoveryExamined: number;
  /** Every document read for the table, discovery included. */
  examined: number;
}

export interface SummaryReport {
  workers: WorkerFigures[];
  /**
   * Workers whose /metrics did not answer, with why: after the demo its workers have stopped,
   * and the rest of the report is still worth printing.
   */
  workersNotAnswering: { url: string; reason: string }[];
  bucketsByLevel: Record<Level, number>;
  /**
   * Window averages; `average` is `null` for a series without readings in the window. The series
   * are found in the buckets summed, so there is no discovery read.
   */
  averages: {
    examined: number;
    fromMs: number;
    toMs: number;
    rows: { series: string; average: number | null; readings: number }[];
    /** Bucket parts summed per series, e.g. minutes 50-59 of one hour bucket. */
    piecesPerSeries: number;
  };
  /** This hour's candles; `candle` is `null` for a series without a price this hour. */
  candles: Examined & {
    hourStart: number;
    rows: { series: string; candle: Candle | null }[];
    /** Where the candles were read from (`1h points from the hours of day buckets`). */
    source: string | undefined;
  };
  windowMinutes: number;
}

const COUNTERS: Record<Exclude<keyof WorkerFigures, 'level' | 'url'>, string> = {
  ticksConsumed: 'tickertape_ticks_consumed_total',
  ticksApplied: 'tickertape_ticks_applied_total',
  bucketsWritten: 'tickertape_buckets_written_total',
  dbOperations: 'tickertape_db_operations_total',
  flushes: 'tickertape_flushes_total',
  deadLetters: 'tickertape_dead_letters_total',
};

/** Sums every sample of each counter in a Prometheus text page (labels aside). */
export function readCounters(text: string, url: string): WorkerFigures {
  const sum = (name: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  const level = /level="(\w+)"/.exec(text)?.[1] ?? '?';
  const figures = { level, url } as WorkerFigures;
  for (const [key, name] of Object.entries(COUNTERS))
    figures[key as keyof typeof COUNTERS] = sum(name);
  return figures;
}

async function bucketsByLevel(store: RollupStore): Promise<Record<Level, number>> {
  const counts = Object.fromEntries(LEVELS.map((level) => [level, 0])) as Record<Level, number>;
  for (const range of await store.listPartitions())
    counts[range.level] += await store.partition(range.name).count();
  return counts;
}

const TRAFFIC = { metric: 'traffic', field: 'speed' } as const;
const STOCKS = { metric: 'stock.tick', field: 'price' } as const;
const HOUR_MS = 3_600_000;

/**
 * Average of the traffic speed over the last `minutes` whole minutes for the first `limit`
 * traffic series, found in the window's own buckets (counts and sums of bucket parts, never
 * averages of averages: one or two hour buckets per series).
 */
async function windowAverages(
  reader: RollupReader,
  nowMs: number,
  minutes: number,
  limit: number,
): Promise<SummaryReport['averages']> {
  const window = lastMinutes(nowMs, minutes);
  // Before the demo's first traffic tick lands the metric is unknown: the report has no rows yet.
  const result = await reader
    .windowByMetric({ metric: TRAFFIC.metric, limit, field: TRAFFIC.field, ...window })
    .catch((err: unknown) => {
      if (isUnknownName(err)) return { rows: [], pieces: [], examined: 0 };
      throw err;
    });
  return {
    ...window,
    rows: result.rows.map((row) => ({
      series: row.series,
      average: row.avg,
      readings: row.n,
    })),
    piecesPerSeries: result.pieces.length,
    examined: result.examined,
  };
}

/** Open/high/low/close of the stock price for the hour holding `nowMs`: one hour-wide candle each. */
async function hourCandles(
  reader: RollupReader,
  hourStart: number,
  limit: number,
): Promise<SummaryReport['candles']> {
  const hour = { fromMs: hourStart, toMs: hourStart + HOUR_MS };
  const found = await reader.series({ metric: STOCKS.metric, ...hour, limit });
  const results = await Promise.all(
    found.series.map((info) =>
      reader.candles({ series: info.series, field: STOCKS.field, ...hour, maxPoints: 1 }),
    ),
  );
  return {
    hourStart,
    rows: results.map((result) => ({ series: result.series, candle: result.candles[0] ?? null })),
    source: results[0] === undefined ? undefined : describeResolution(results[0].resolution),
    discoveryExamined: found.examined,
    examined: results.reduce((total, result) => total + result.examined, found.examined),
  };
}

export interface SummaryOptions {
  workerUrls: readonly string[];
  nowMs: number;
  windowMinutes: number;
  limit: number;
}

/** What the demo prints: what the workers did, what the database holds, and a few answers read from the rollups. */
/** How long one worker's /metrics may take: a stopped worker's port refuses at once, a hung one must not hold the report. */
const METRICS_TIMEOUT_MS = 5_000;

type Scrape = { figures: WorkerFigures } | { url: string; reason: string };

/** fetch's own message is "fetch failed"; the reason (ECONNREFUSED, a timeout …) is its cause. */
function reasonOf(err: unknown): string {
  const cause = (err as { cause?: unknown } | null)?.cause ?? err;
  const { message, code } = (cause ?? {}) as { message?: unknown; code?: unknown };
  if (typeof message === 'string' && message !== '') return message;
  return typeof code === 'string' ? code : String(cause);
}

async function scrapeWorker(url: string): Promise<Scrape> {
  try {
    const response = await fetch(`${url.replace(/\/$/, '')}/metrics`, {
      signal: AbortSignal.timeout(METRICS_TIMEOUT_MS),
    });
    if (!response.ok) return { url, reason: `/metrics answered ${response.status}` };
    return { figures: readCounters(await response.text(), url) };
  } catch (err) {
    return { url, reason: `not answering (${reasonOf(err)})` };
  }
}

export async function summarize(
  store: RollupStore,
  options: SummaryOptions,
): Promise<SummaryReport> {
  const scrapes = await Promise.all(options.workerUrls.map(scrapeWorker));
  const reader = new RollupReader({ rollups: store }, { now: () => options.nowMs });
  return {
    workers: scrapes.flatMap((scrape) => ('figures' in scrape ? [scrape.figures] : [])),
    workersNotAnswering: scrapes.flatMap((scrape) => ('figures' in scrape ? [] : [scrape])),
    bucketsByLevel: await bucketsByLevel(store),
    averages: await windowAverages(reader, options.nowMs, options.windowMinutes, options.limit),
    candles: await hourCandles(reader, floorTo(options.nowMs, HOUR_MS), options.limit),
    windowMinutes: options.windowMinutes,
  };
}

export interface SummaryCommandOptions {
  database: string;
  workers: string;
  topic: string;
  waitForGroups?: string;
  windowMinutes: number;
  limit: number;
  timeoutMs: number;
}

/**
 * Waits until every group has committed the whole topic (the demo's "workers caught up"), the
 * records left counted down from the first poll.
 */
async function waitForGroups(
  admin: Admin,
  groups: readonly string[],
  topic: string,
  timeoutMs: number,
  startProgress: StartProgress,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let progress: Progress | undefined;
  let first = 0;
  try {
    for (;;) {
      const lags = await Promise.all(
        groups.map(
          async (group) => [group, (await consumerLag(admin, group, topic)).total] as const,
        ),
      );
      const behind = lags.filter(([, lag]) => lag > 0);
      const lag = behind.reduce((sum, [, l]) => sum + l, 0);
      if (progress === undefined && lag > 0) {
        first = lag;
        progress = startProgress({
          total: first,
          unit: 'records',
          label: 'summary: groups catching up',
        });
      }
      progress?.update(Math.max(0, first - lag));
      if (behind.length === 0) return;
      if (Date.now() > deadline) {
        throw new TickertapeError(
          'SUMMARY_TIMEOUT',
          `still behind after ${timeoutMs} ms: ${behind.map(([g, l]) => `${g} lag ${l}`).join(', ')}`,
          { retriable: true },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    progress?.stop();
  }
}

export async function summaryCommand(
  env: CliEnv,
  options: SummaryCommandOptions,
  logger: Logger,
  now: () => number = Date.now,
  startProgress: StartProgress = NO_PROGRESS,
): Promise<SummaryReport> {
  if (options.waitForGroups) {
    const kafka = await openKafka(env, logger, 'tickertape-summary', { registry: false });
    const admin = kafka.admin();
    await admin.connect();
    try {
      await waitForGroups(
        admin,
        options.waitForGroups.split(','),
        options.topic,
        options.timeoutMs,
        startProgress,
      );
    } finally {
      await admin.disconnect();
    }
  }
  const stores = await openStores(env, logger, 'tickertape-summary', options.database);
  try {
    return await summarize(stores.rollups, {
      workerUrls: options.workers.split(',').filter((url) => url !== ''),
      nowMs: now(),
      windowMinutes: options.windowMinutes,
      limit: options.limit,
    });
  } finally {
    await stores.close();
  }
}
