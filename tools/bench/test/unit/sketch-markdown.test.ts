import { describe, expect, it } from '@jest/globals';
import type { BenchReport, DesignRun } from '../../src/bench-report.js';
import { densityFigures, type DensityMeasured } from '../../src/density-figures.js';
import { sketchSection, sketchTargets } from '../../src/sketch-markdown.js';
import type { LevelRun } from '../../src/workers.js';

const level = (name: 'minute' | 'hour', cpuSeconds: number): LevelRun => ({
  level: name,
  groupId: `g-${name}`,
  seconds: 2,
  consumed: 100_000,
  applied: 100_000,
  deadLetters: 0,
  flushes: 20,
  buckets: 4000,
  ops: 4000,
  bulkWrites: 20,
  conflicts: 0,
  cpuSeconds,
});

const design = (key: 'B' | 'S', cpu: [number, number], bytes: number): DesignRun => ({
  key,
  ticks: 100_000,
  seconds: 2,
  ticksPerSec: 50_000,
  ops: 8000,
  requests: 40,
  cpuSeconds: cpu[0] + cpu[1],
  stored: {
    collections: [],
    byCollection: [],
    documents: 4000,
    dataBytes: bytes * 100_000,
    indexBytes: 0,
    indexSampled: 0,
  },
  levels: [level('minute', cpu[0]), level('hour', cpu[1])],
});

/** One density of the sketch probe: minute and hour bytes per tick as given. */
const density = (perSecond: number, sketches: boolean, minute: number, hour: number) => {
  const part = (bytesPerTick: number) => ({
    documents: 1,
    dataBytes: bytesPerTick * 1000,
    indexBytes: 0,
    buckets: 1,
    operations: 1,
    bulkWrites: 1,
  });
  const measured: DensityMeasured = {
    perSecond,
    series: 10,
    ticks: 1000,
    durationMs: 600_000,
    flushes: 1,
    levels: { minute: part(minute), hour: part(hour) },
    perTick: { documents: 1000, dataBytes: 200_000, indexBytes: 0 },
    ...(sketches ? { sketches: true } : {}),
  };
  return densityFigures(measured);
};

const side = (examined: number, p99Ms: number) => ({ examined, runs: 30, p50Ms: 1, p99Ms });

function report(
  sOnCpu: [number, number],
  onBytes: [number, number],
  quantileP99Ms = 11,
): BenchReport {
  return {
    designs: [design('B', [2, 2], 50), design('S', sOnCpu, 80)],
    reads: {
      window: { rollups: side(100, 10) },
      quantile: {
        phi: 0.85,
        sensors: 50,
        covered: 3000,
        ticks: 3000,
        rollups: side(100, quantileP99Ms),
        perTick: side(3000, 200),
        maxDifference: 0.004,
      },
    },
    sketchDensity: {
      seed: 1,
      startMs: 0,
      plan: { partitions: 4, flushTicks: 3000 },
      densities: [
        density(1, false, 40, 10),
        density(1, true, onBytes[0], 10),
        density(1 / 60, false, 100, 50),
        density(1 / 60, true, onBytes[1], 50),
      ],
    },
  } as unknown as BenchReport;
}

describe('sketch targets', () => {
  it('compares each level of S with B and each density on with off, in one run', () => {
    const [cpu, bytes, read] = sketchTargets(report([2.4, 2.2], [60, 120]));
    expect(read!.measured).toBe(
      '100 documents, p99 11.0 ms ÷ 10.0 ms = 1.10, largest relative error 0.0040, sketches cover 3,000 of 3,000 ticks',
    );
    expect(read!.met).toBe(true);
    expect(cpu!.measured).toBe('minute 24.0 ÷ 20.0 = 1.20; hour 22.0 ÷ 20.0 = 1.10');
    expect(cpu!.met).toBe(true);
    expect(bytes!.measured).toBe('1/s: 70.0 ÷ 50.0 = 1.40; 1/60 s: 170.0 ÷ 150.0 = 1.13');
    expect(bytes!.met).toBe(true);
  });

  it('misses when one level costs more than 1.3 × or one density stores more than 2 ×', () => {
    const [cpu, bytes, read] = sketchTargets(report([2.8, 2.0], [40, 260], 30));
    expect(cpu!.met).toBe(false);
    expect(bytes!.met).toBe(false);
    expect(read!.met).toBe(false);
  });

  it('says nothing for a report from before sketches', () => {
    const old = {
      designs: [design('B', [2, 2], 50)],
      reads: { window: { rollups: side(100, 10) } },
    } as unknown as BenchReport;
    expect(sketchTargets(old)).toEqual([]);
    expect(sketchSection(old)).toEqual([]);
  });

  it('writes the section with both tables', () => {
    const markdown = sketchSection(report([2.4, 2.2], [60, 120])).join('\n');
    expect(markdown).toContain('## Quantile sketches, spread and VWAP: what they cost');
    expect(markdown).toContain('| minute worker, CPU s per M ticks |');
    expect(markdown).toContain('| 1/60 s |');
  });
});
