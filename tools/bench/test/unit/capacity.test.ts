import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parseBenchJson } from '@tickertape/capacity';
import type { BucketPoint } from '@tickertape/capacity';
import { modelInputs } from '@tickertape/capacity';
import {
  bucketsPerFlush,
  bytesPerBucket,
  dayChartDocuments,
  documentsPerDay,
  flushSpanSeconds,
  nearestPoint,
  operationsPerSecond,
  partitionsFor,
  planScenario,
  scenarios,
  workersFor,
} from '@tickertape/capacity';
import { bytesShown } from '@tickertape/capacity';

const FIXTURE = new URL('../fixtures/benchmarks.json', import.meta.url);

function point(perSecond: number, bytes: number, minutes?: number): BucketPoint {
  const figure = (value: number) => ({
    id: 'M0',
    what: '',
    field: '',
    source: '',
    value,
    shown: '',
  });
  return {
    perSecond: figure(perSecond),
    bytesPerBucket: figure(bytes),
    ...(minutes === undefined ? {} : { minutesPerBucket: figure(minutes) }),
  };
}

describe('capacity model: formulas', () => {
  it('plans workers by CPU per tick under the utilisation, at least one', () => {
    // 100k ticks/s × 20 µs = 2 cores of CPU; at 70 % that is 2.86 → 3 workers.
    expect(workersFor(100_000, 20e-6, 0.7)).toBe(3);
    expect(workersFor(10, 20e-6, 0.7)).toBe(1);
    expect(workersFor(34_000, 20e-6, 0.7)).toBe(1);
  });

  it('gives the topic a power of two of partitions, at least the largest level’s workers', () => {
    expect(partitionsFor(1, 4)).toBe(4);
    expect(partitionsFor(5, 4)).toBe(8);
    expect(partitionsFor(64, 4)).toBe(64);
    expect(partitionsFor(65, 4)).toBe(128);
  });

  it('bounds a flush by the budget, the most ticks and the held bytes', () => {
    // 1,000 ticks/s to one worker: the minute budget (5 s) and the hour budget (60 s).
    expect(flushSpanSeconds('minute', 1000, 4, 1)).toBe(5);
    expect(flushSpanSeconds('hour', 1000, 4, 1)).toBe(60);
    // 100k ticks/s over 4 partitions and 2 workers: 100,000 ticks of a partition in 4 s.
    expect(flushSpanSeconds('minute', 100_000, 4, 2)).toBeCloseTo(4, 9);
    // 1M ticks/s to one worker: 128 MiB of 350 B ticks in 0.38 s.
    expect(flushSpanSeconds('hour', 1_000_000, 64, 1)).toBeCloseTo((128 * 2 ** 20) / 350e6, 9);
  });

  it('counts one operation per bucket a flush touches, never more than the ticks', () => {
    // Dense: 10k series each written once per 0.5 s flush, plus slot crossings.
    expect(operationsPerSecond(1_000_000, 10_000, 0.5, 60)).toBeCloseTo(20_000 + 10_000 / 60, 6);
    // Sparse: every tick its own bucket.
    expect(operationsPerSecond(10_000, 1_000_000, 0.5, 60)).toBe(10_000);
    expect(bucketsPerFlush(3000, 30, 180, 60)).toBe(120);
    expect(bucketsPerFlush(10, 30, 180, 60)).toBe(10);
  });

  it('counts the slots that see a tick per day', () => {
    expect(documentsPerDay(10, 1, 60)).toBe(10 * 1440);
    expect(documentsPerDay(10, 0.01, 60)).toBeCloseTo(10 * 1440 * 0.6, 6);
    expect(documentsPerDay(10, 0.01, 3600)).toBe(10 * 24);
  });

  it('takes the bucket size of the nearest measured density, on a log scale', () => {
    const points = [point(0.25, 1000), point(1, 2000), point(10, 2400)];
    expect(nearestPoint(points, 0.4).point.perSecond.value).toBe(0.25);
    expect(nearestPoint(points, 0.6).point.perSecond.value).toBe(1);
    expect(nearestPoint(points, 100)).toMatchObject({ outside: 'above' });
    expect(nearestPoint(points, 0.01)).toMatchObject({ outside: 'below' });
    expect(nearestPoint(points, 1).outside).toBeUndefined();
  });

  it('scales an hour bucket measured over part of an hour to 60 minutes', () => {
    expect(bytesPerBucket(point(1, 3000, 10))).toBe(18_000);
    expect(bytesPerBucket(point(1, 3000, 60))).toBe(3000);
    expect(bytesPerBucket(point(1, 3000))).toBe(3000);
  });

  it('counts the buckets a one-day chart reads', () => {
    const hour = 3_600_000;
    expect(dayChartDocuments(3600, 0, 24 * hour)).toBe(24);
    expect(dayChartDocuments(3600, hour / 2, 24 * hour + hour / 2)).toBe(25);
  });

  it('prints bytes in binary units', () => {
    expect(bytesShown(512)).toBe('512 B');
    expect(bytesShown(1536)).toBe('1.5 KiB');
    expect(bytesShown(3 * 2 ** 40)).toBe('3.0 TiB');
  });
});

describe('capacity model: from the benchmark JSON', () => {
  const json = parseBenchJson(readFileSync(FIXTURE, 'utf8'));
  const inputs = modelInputs(json);

  it('reads every figure from the JSON, numbered in order', () => {
    const { figures } = inputs.registry;
    expect(figures.map((f) => f.id)).toEqual(figures.map((_, i) => `M${i + 1}`));
    const minute = json.designs
      .find((d) => d.key === 'B')!
      .levels!.find((l) => l.level === 'minute')!;
    expect(inputs.levels.minute.cpuPerTick.value).toBe(minute.cpuSeconds / minute.applied);
    expect(inputs.bytesFrom).toBe('density probe');
    expect(inputs.buckets.minute).toHaveLength(json.density!.densities.length);
  });

  it('falls back to the benchmark tick set without a density probe', () => {
    const { density: _density, ...withoutProbe } = json;
    const fallback = modelInputs(withoutProbe);
    expect(fallback.bytesFrom).toBe('benchmark tick set');
    expect(fallback.buckets.minute).toHaveLength(1);
    expect(fallback.buckets.hour[0]!.minutesPerBucket).toBeDefined();
  });

  it('plans every scenario with positive figures, linear in the rate for CPU', () => {
    const chart = { slotS: 3600, fromMs: 0, toMs: 86_400_000 };
    const plans = scenarios().map((s) => planScenario(inputs, s, chart));
    expect(plans).toHaveLength(6);
    for (const plan of plans) {
      expect(plan.partitions).toBeGreaterThanOrEqual(
        Math.max(plan.levels.minute.workers, plan.levels.hour.workers),
      );
      expect(plan.cores).toBe(plan.levels.minute.workers + plan.levels.hour.workers);
      for (const level of [plan.levels.minute, plan.levels.hour]) {
        expect(level.operationsPerSecond).toBeGreaterThan(0);
        expect(level.operationsPerSecond).toBeLessThanOrEqual(plan.rate);
        expect(level.bytesPerDay).toBeGreaterThan(0);
      }
      expect(plan.reads.chartRollups).toBe(24);
    }
    expect(plans[4]!.levels.minute.cpuCores).toBeCloseTo(plans[0]!.levels.minute.cpuCores * 100, 6);
  });
});
