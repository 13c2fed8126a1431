import {
  LEVELS,
  parsePartitionName,
  partitionOf,
  slotStart,
  type Level,
} from '@tickertape/buckets';
import { consumerLag, createMongoClient } from '@tickertape/clients';
import { TickertapeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { listPartitionNames } from '@tickertape/store';
import type { Admin } from 'kafkajs';
import type { Db, Document } from 'mongodb';
import { openKafka } from '../connect.js';
import type { CliEnv } from '../env.js';
import { formatTable } from '../table.js';

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

export interface SummaryReport {
  workers: WorkerFigures[];
  bucketsByLevel: Record<Level, number>;
  averages: { series: string; average: number; readings: number; buckets: number }[];
  candles: {
    series: string;
    open: number;
    high: number;
    low: number;
    close: number;
    ticks: number;
  }[];
  windowMinutes: number;
  hourStart: number;
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

async function bucketsByLevel(db: Db): Promise<Record<Level, number>> {
  const counts = Object.fromEntries(LEVELS.map((level) => [level, 0])) as Record<Level, number>;
  for (const name of await listPartitionNames(db)) {
    const range = parsePartitionName(name);
    if (range) counts[range.level] += await db.collection(name).countDocuments();
  }
  return counts;
}

type Aggregate = {
  n: number;
  sum: number;
  min: number;
  max: number;
  first: { v: number };
  last: { v: number };
};

/**
 * Average of `field` over the last `minutes` minutes for the first `limit` series of `metric`,
 * from minute buckets (counts and sums, never averages): a handful of documents per series.
 */
async function windowAverages(
  db: Db,
  metric: string,
  field: string,
  nowMs: number,
  minutes: number,
  limit: number,
) {
  const from = slotStart('minute', nowMs - minutes * 60_000);
  const names = new Set([partitionOf('minute', from).name, partitionOf('minute', nowMs).name]);
  const bySeries = new Map<string, { n: number; sum: number; buckets: number }>();
  for (const name of names) {
    const docs = db
      .collection<Document>(name)
      .find(
        { metric, start: { $gte: new Date(from), $lte: new Date(nowMs) } },
        { projection: { series: 1, [`f.${field}.n`]: 1, [`f.${field}.sum`]: 1 } },
      );
    for await (const doc of docs) {
      const agg = (doc.f as Record<string, Aggregate> | undefined)?.[field];
      if (!agg) continue;
      const seen = bySeries.get(doc.series as string) ?? { n: 0, sum: 0, buckets: 0 };
      bySeries.set(doc.series as string, {
        n: seen.n + agg.n,
        sum: seen.sum + agg.sum,
        buckets: seen.buckets + 1,
      });
    }
  }
  return [...bySeries]
    .sort(([a], [b]) => a.localeCompare(b))
    .slice(0, limit)
    .map(([series, { n, sum, buckets }]) => ({ series, average: sum / n, readings: n, buckets }));
}

/** Open/high/low/close of `field` for the current hour, from hour buckets: one document each. */
async function hourCandles(
  db: Db,
  metric: string,
  field: string,
  hourStart: number,
  limit: number,
) {
  const docs = await db
    .collection<Document>(partitionOf('hour', hourStart).name)
    .find({ metric, start: new Date(hourStart) }, { projection: { series: 1, [`f.${field}`]: 1 } })
    .sort({ series: 1 })
    .limit(limit)
    .toArray();
  return docs.flatMap((doc) => {
    const agg = (doc.f as Record<string, Aggregate> | undefined)?.[field];
    if (!agg) return [];
    return [
      {
        series: doc.series as string,
        open: agg.first.v,
        high: agg.max,
        low: agg.min,
        close: agg.last.v,
        ticks: agg.n,
      },
    ];
  });
}

export interface SummaryOptions {
  workerUrls: readonly string[];
  nowMs: number;
  windowMinutes: number;
  limit: number;
}

/** What the demo prints: what the workers did, what the database holds, and a few answers read from the rollups. */
export async function summarize(db: Db, options: SummaryOptions): Promise<SummaryReport> {
  const workers = await Promise.all(
    options.workerUrls.map(async (url) =>
      readCounters(await (await fetch(`${url.replace(/\/$/, '')}/metrics`)).text(), url),
    ),
  );
  const hourStart = slotStart('hour', options.nowMs);
  return {
    workers,
    bucketsByLevel: await bucketsByLevel(db),
    averages: await windowAverages(
      db,
      'traffic',
      'speed',
      options.nowMs,
      options.windowMinutes,
      options.limit,
    ),
    candles: await hourCandles(db, 'stock.tick', 'price', hourStart, options.limit),
    windowMinutes: options.windowMinutes,
    hourStart,
  };
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export function formatSummary(report: SummaryReport): string {
  const parts = [
    'workers',
    formatTable(
      [
        'level',
        'ticks consumed',
        'ticks applied',
        'dead letters',
        'flushes',
        'buckets written',
        'db ops',
        'db ops per tick',
        'ticks per db op',
      ],
      report.workers.map((w) => [
        w.level,
        w.ticksConsumed,
        w.ticksApplied,
        w.deadLetters,
        w.flushes,
        w.bucketsWritten,
        w.dbOperations,
        round(w.dbOperations / Math.max(w.ticksApplied, 1), 4),
        round(w.ticksApplied / Math.max(w.dbOperations, 1), 1),
      ]),
    ),
    'buckets in the database',
    formatTable(
      ['level', 'buckets'],
      LEVELS.map((level) => [level, report.bucketsByLevel[level]]),
    ),
    `average speed over the last ${report.windowMinutes} minutes (from minute buckets)`,
    formatTable(
      ['series', 'avg speed', 'readings', 'buckets read'],
      report.averages.map((a) => [a.series, round(a.average), a.readings, a.buckets]),
    ),
    `price candles for the hour from ${new Date(report.hourStart).toISOString()} (one hour bucket each)`,
    formatTable(
      ['series', 'open', 'high', 'low', 'close', 'ticks'],
      report.candles.map((c) => [c.series, c.open, c.high, c.low, c.close, c.ticks]),
    ),
  ];
  return parts.join('\n');
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

/** Waits until every group has committed the whole topic (the demo's "workers caught up"). */
async function waitForGroups(
  admin: Admin,
  groups: readonly string[],
  topic: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lags = await Promise.all(
      groups.map(async (group) => [group, (await consumerLag(admin, group, topic)).total] as const),
    );
    const behind = lags.filter(([, lag]) => lag > 0);
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
}

export async function summaryCommand(
  env: CliEnv,
  options: SummaryCommandOptions,
  logger: Logger,
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
      );
    } finally {
      await admin.disconnect();
    }
  }
  const mongo = createMongoClient({ uri: env.MONGODB_URI, appName: 'tickertape-summary', logger });
  await mongo.connect();
  try {
    return await summarize(mongo.db(options.database), {
      workerUrls: options.workers.split(',').filter((url) => url !== ''),
      nowMs: Date.now(),
      windowMinutes: options.windowMinutes,
      limit: options.limit,
    });
  } finally {
    await mongo.close();
  }
}
