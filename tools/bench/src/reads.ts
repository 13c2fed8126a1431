import { MODEL_LEVELS } from '@tickertape/capacity';
import { RollupReader } from '@tickertape/query';
import type { RollupStore } from '@tickertape/store';
import type { PerTickReads } from './design-databases.js';
import { repeat, repeatPaired, timing, type Timing } from './stats.js';
import type { TickSetShape } from './tick-set.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface ReadSide {
  /** Documents examined and latency, rollups vs the one-document-per-tick collection. */
  rollups: Timing & { examined: number };
  perTick: Timing & { examined: number };
  /** Largest difference between the two answers (averages, or tick counts): they must agree. */
  maxDifference: number;
}

export interface ReadResults {
  window: ReadSide & { sensors: number; fromMs: number; toMs: number; pieces: number };
  /**
   * The same window's φ-quantile of S's rollups (quantile sketches on) against the exact one of
   * the raw ticks; `maxDifference` is relative. Absent in reports from before issue 36.
   */
  quantile?: ReadSide & { phi: number; sensors: number; covered: number; ticks: number };
  chart: ReadSide & { series: string; fromMs: number; toMs: number; resolution: string };
}

/**
 * The seed's 10-minute window: across an hour boundary when the data has one (two hour buckets
 * per sensor, the worst case for a whole-minute window), else the data's last 10 minutes.
 */
export function tenMinuteWindow(startMs: number, endMs: number): { fromMs: number; toMs: number } {
  const lastHour = Math.floor(endMs / HOUR) * HOUR;
  if (lastHour - 5 * MINUTE >= startMs && lastHour + 5 * MINUTE <= endMs) {
    return { fromMs: lastHour - 5 * MINUTE, toMs: lastHour + 5 * MINUTE };
  }
  const toMs = Math.floor(endMs / MINUTE) * MINUTE;
  return { fromMs: toMs - 10 * MINUTE, toMs };
}

/**
 * Step 3: the same two questions asked of B's rollups (through the query library) and of D's
 * per-tick collection (which has an index on {series, ts}, so a real MongoDB would read only
 * the matching documents: documents examined are counted as documents matched).
 */
/** Untimed runs of each paired rollup read before the timed ones (repeatPaired). */
export const READ_WARM_UP = 10;

/** The untimed runs of one rollup read (see repeatPaired). */
async function warmUp(read: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < READ_WARM_UP; i++) await read();
}

/** The φ the seed's traffic engineers ask for: the 85th-percentile speed. */
export const SPEED_PHI = 0.85;

/** The value of rank ⌊φ·(n − 1)⌋ of `values`: what a sketch answers within α. */
export function rankValue(values: readonly number[], phi: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(phi * (sorted.length - 1))]!;
}

export async function measureReads(options: {
  rollups: RollupStore;
  /** S's rollups, written with quantile sketches: the percentile read. */
  sketched?: RollupStore;
  perTick: PerTickReads;
  shape: TickSetShape;
  runs: number;
  rawBudgetMs: number;
}): Promise<ReadResults> {
  const { shape, runs } = options;
  const reader = new RollupReader(
    { rollups: options.rollups },
    {
      // Only these two levels ran; the reader must not plan reads from day buckets.
      levels: [...MODEL_LEVELS],
      now: () => shape.endMs,
    },
  );
  const rawBudget = { ms: options.rawBudgetMs, minRuns: 2 };

  const sensors = shape.trafficSeries.slice(0, 50);
  const window = tenMinuteWindow(shape.startMs, shape.endMs);
  const average = () => reader.window({ series: sensors, field: 'speed', ...window });
  const sketchedReader =
    options.sketched === undefined
      ? undefined
      : new RollupReader(
          { rollups: options.sketched },
          { levels: [...MODEL_LEVELS], now: () => shape.endMs },
        );
  // The percentile read's target is a ratio to the average's latency: run them in turns.
  const [rolled, asked] =
    sketchedReader === undefined
      ? [await warmUp(average).then(() => repeat(average, runs)), undefined]
      : await repeatPaired(
          average,
          () =>
            sketchedReader.window({
              series: sensors,
              field: 'speed',
              ...window,
              quantiles: [SPEED_PHI],
            }),
          runs,
          READ_WARM_UP,
        );
  const raw = await repeat(
    () => options.perTick.windowSums(sensors, 'speed', window.fromMs, window.toMs),
    runs,
    rawBudget,
  );
  const rawAverages = new Map(raw.answer.map((row) => [row.series, row.sum / row.n]));
  const windowDifference = Math.max(
    0,
    ...rolled.answer.rows.map((row) =>
      Math.abs((row.avg ?? Number.NaN) - (rawAverages.get(row.series) ?? Number.NaN)),
    ),
  );

  let quantile: ReadResults['quantile'];
  if (asked !== undefined) {
    const exactRead = await repeat(
      () => options.perTick.windowValues(sensors, 'speed', window.fromMs, window.toMs),
      runs,
      rawBudget,
    );
    const exact = exactRead.answer;
    let worst = 0;
    let covered = 0;
    let ticks = 0;
    for (const row of asked.answer.rows) {
      const values = exact.get(row.series) ?? [];
      const answered = row.quantiles?.[`q${SPEED_PHI}`];
      ticks += row.n;
      covered += row.coverage.sketch ?? 0;
      if (values.length === 0) continue;
      const truth = rankValue(values, SPEED_PHI);
      worst = Math.max(
        worst,
        answered === null || answered === undefined
          ? Infinity
          : Math.abs(answered - truth) / Math.abs(truth),
      );
    }
    quantile = {
      phi: SPEED_PHI,
      sensors: sensors.length,
      covered,
      ticks,
      rollups: { examined: asked.answer.examined, ...timing(asked.samplesMs) },
      perTick: {
        examined: [...exact.values()].reduce((sum, v) => sum + v.length, 0),
        ...timing(exactRead.samplesMs),
      },
      maxDifference: worst,
    };
  }

  const series = shape.stockSeries[0]!;
  const toMs = Math.ceil(shape.endMs / MINUTE) * MINUTE;
  const chartRange = { fromMs: toMs - DAY, toMs };
  const chartRead = () => reader.auto({ series, field: 'price', ...chartRange, maxPoints: 1000 });
  await warmUp(chartRead);
  const chart = await repeat(chartRead, runs);
  const rawChart = await repeat(
    () => options.perTick.chartTicks(series, 'price', chartRange.fromMs, chartRange.toMs),
    runs,
    rawBudget,
  );
  const chartTicks = chart.answer.points.reduce((sum, point) => sum + (point.n ?? 0), 0);
  const { stepMs, source } = chart.answer.resolution;

  return {
    window: {
      sensors: sensors.length,
      ...window,
      pieces: rolled.answer.pieces.length,
      rollups: { examined: rolled.answer.examined, ...timing(rolled.samplesMs) },
      perTick: {
        examined: raw.answer.reduce((sum, row) => sum + row.n, 0),
        ...timing(raw.samplesMs),
      },
      maxDifference: Number.isNaN(windowDifference) ? Infinity : windowDifference,
    },
    ...(quantile === undefined ? {} : { quantile }),
    chart: {
      series,
      ...chartRange,
      resolution: `${stepMs / MINUTE}-minute points from ${source.level} buckets (${source.detail === 'sub' ? 'their sub-slots' : 'whole'})`,
      rollups: { examined: chart.answer.examined, ...timing(chart.samplesMs) },
      perTick: { examined: rawChart.answer.length, ...timing(rawChart.samplesMs) },
      maxDifference: Math.abs(chartTicks - rawChart.answer.length),
    },
  };
}
