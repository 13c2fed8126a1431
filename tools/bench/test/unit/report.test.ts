import { describe, expect, it } from '@jest/globals';
import { renderChart } from '../../src/chart.js';
import { renderMarkdown } from '../../src/markdown.js';
import { figures } from '../../src/report.js';
import type { BenchReport, DesignKey, DesignRun } from '../../src/bench-report.js';
import { resolveSettings } from '../../src/settings.js';
import type { LevelRun } from '../../src/workers.js';

const TOTAL = 100_000;

function level(name: 'minute' | 'hour', ops: number, seconds: number): LevelRun {
  return {
    level: name,
    groupId: `g-${name}`,
    seconds,
    consumed: TOTAL,
    applied: TOTAL,
    deadLetters: 0,
    flushes: 20,
    buckets: ops,
    ops,
    bulkWrites: 20,
    conflicts: 0,
    cpuSeconds: 2,
  };
}

function run(
  key: DesignKey,
  ticksPerSec: number,
  bytes?: number,
  extra: Partial<DesignRun> = {},
): DesignRun {
  const ticks = extra.ticks ?? TOTAL;
  return {
    key,
    ticks,
    seconds: ticks / ticksPerSec,
    ticksPerSec,
    ops: key === 'A' ? 0 : ticks,
    requests: key === 'A' ? 0 : ticks / 1000,
    cpuSeconds: 3,
    ...(bytes === undefined
      ? {}
      : {
          stored: {
            collections: ['ticks'],
            byCollection: [],
            documents: ticks,
            dataBytes: bytes * ticks * 0.75,
            indexBytes: bytes * ticks * 0.25,
            indexSampled: 20_000,
          },
        }),
    ...extra,
  };
}

/** A report with round figures: B is 0.9 × A and 25 × C, C stores 6 × B's bytes per tick. */
function report(): BenchReport {
  const levels = [level('minute', 4000, 2), level('hour', 1000, 1.5)];
  return {
    settings: resolveSettings('smoke'),
    startedAt: Date.UTC(2026, 10, 21, 10),
    finishedAt: Date.UTC(2026, 10, 21, 10, 5),
    machine: {
      cores: 2,
      cpuModel: 'test cpu',
      memoryGiB: 24,
      node: 'v20.20.2',
      os: 'linux',
      database: 'mongo-java-server 1.47',
      standIn: true,
    },
    load: {
      ticks: TOTAL,
      seconds: 5,
      ticksPerSec: 20_000,
      bytes: TOTAL * 100,
      partitions: 4,
      shape: {
        total: TOTAL,
        stockSeries: ['stock.tick|exchange=NYSE,symbol=ACME'],
        trafficSeries: Array.from({ length: 50 }, (_, i) => `traffic|sensor=${900000 + i}`),
        startMs: Date.UTC(2026, 10, 21, 9, 45),
        endMs: Date.UTC(2026, 10, 21, 10, 15),
        stockFields: ['price', 'volume'],
        trafficFields: ['speed', 'travel_time'],
      },
    },
    designs: [
      run('A', 50_000),
      { ...run('B', 45_000, 40), ops: 5000, requests: 40, levels },
      run('C', 1_800, 240, { ticks: 36_000, cappedBy: 'time' }),
      run('D', 9_000, 240),
      run('E', 5_000, 260),
      {
        ...run('F', 30_000, 90),
        ops: 5000,
        levels,
        shells: { documents: 3000, seconds: 2 },
      },
    ],
    reads: {
      window: {
        sensors: 50,
        fromMs: Date.UTC(2026, 10, 21, 9, 55),
        toMs: Date.UTC(2026, 10, 21, 10, 5),
        pieces: 2,
        rollups: { examined: 100, runs: 30, p50Ms: 5, p99Ms: 9 },
        perTick: { examined: 7500, runs: 5, p50Ms: 900, p99Ms: 1000 },
        maxDifference: 0,
      },
      chart: {
        series: 'stock.tick|exchange=NYSE,symbol=ACME',
        fromMs: Date.UTC(2026, 10, 20, 10, 15),
        toMs: Date.UTC(2026, 10, 21, 10, 15),
        resolution: '2-minute points from hour buckets (their sub-slots)',
        rollups: { examined: 2, runs: 30, p50Ms: 3, p99Ms: 4 },
        perTick: { examined: 3600, runs: 5, p50Ms: 800, p99Ms: 850 },
        maxDifference: 0,
      },
    },
    latency: {
      targetRate: 22_500,
      achievedRate: 22_000,
      ticks: 440_000,
      markers: 200,
      visible: 200,
      p50Ms: 300,
      p99Ms: 2_500,
      maxMs: 2_700,
    },
    probe: { documents: 5000, idOnlyMsPerOp: 0.3, guardedMsPerOp: 6 },
  };
}

describe('figures', () => {
  it('computes the ratios of one run and says which targets are met', () => {
    const derived = figures(report());
    const ratio = (name: string) => derived.ratios.find((r) => r.name === name)!.value;
    expect(ratio('B/A')).toBeCloseTo(0.9);
    expect(ratio('B/C')).toBeCloseTo(25);
    expect(ratio('bytes C/B')).toBeCloseTo(6);
    expect(ratio('docs examined C/B (10-min avg, 50 sensors)')).toBe(75);
    expect(ratio('shells: F/B ticks/s')).toBeCloseTo(30 / 45);
    expect(derived.coalescing).toEqual([
      { level: 'minute', ratio: 1 },
      { level: 'hour', ratio: 1 },
    ]);
    // Everything met but the latency: p99 2.5 s > 2 s.
    expect(derived.targets.map((t) => t.met)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    // Each level's worker: 2 CPU s per 100,000 ticks = 20 per million, A 30: 0.67 × A.
    expect(derived.targets[2]).toEqual({
      target: 'worker CPU per tick, minute level ≤ 1.25 × A',
      measured: '20.0 ÷ 30.0 CPU s per M ticks = 0.67 × A',
      met: true,
    });
    expect(derived.targets[3]!.target).toBe('worker CPU per tick, hour level ≤ 1.25 × A');
  });

  it('misses the worker CPU target above 1.25 × A, and the read target above 20 ms p99', () => {
    const data = report();
    const b = data.designs.find((d) => d.key === 'B')!;
    b.levels = [{ ...b.levels![0]!, cpuSeconds: 3.8 }, b.levels![1]!];
    data.reads.window.rollups.p99Ms = 21;
    const derived = figures(data);
    expect(derived.targets[2]!.measured).toBe('38.0 ÷ 30.0 CPU s per M ticks = 1.27 × A');
    expect(derived.targets[2]!.met).toBe(false);
    expect(derived.targets[3]!.met).toBe(true);
    const read = derived.targets.find((t) => t.target.startsWith('"10-minute average'))!;
    expect(read.measured).toBe('100 documents (50 sensors), p99 21.0 ms');
    expect(read.met).toBe(false);
  });

  it('misses the coalescing target when a level sent more operations than buckets', () => {
    const data = report();
    const b = data.designs.find((d) => d.key === 'B')!;
    b.levels = [{ ...b.levels![0]!, ops: 4001 }, b.levels![1]!];
    const target = figures(data).targets.find((t) => t.target.startsWith('DB operations'))!;
    expect(target.met).toBe(false);
  });
});

describe('renderMarkdown', () => {
  it('holds the command, the machine, every design, the targets and the chart link', () => {
    const markdown = renderMarkdown(report(), {
      command: 'bash scripts/bench.sh --profile full',
      chart: 'benchmarks.svg',
    });
    expect(markdown).toContain('bash scripts/bench.sh --profile full');
    expect(markdown).toContain('2 cores (test cpu), 24 GiB memory');
    expect(markdown).toContain('![throughput, storage and documents read](benchmarks.svg)');
    for (const key of ['A', 'B', 'C', 'D', 'E', 'F']) expect(markdown).toContain(`| **${key}** |`);
    expect(markdown).toContain('stopped by its time cap after 36,000 ticks');
    expect(markdown).toContain(
      '| produce → visible p99 ≤ 2 s at half of B’s maximum rate | p99 2.50 s',
    );
    expect(markdown).toContain('**missed**');
    expect(markdown).toContain('see CPU per million ticks by process');
    // A series key's `|` is escaped, or it would split its table cell.
    expect(markdown).toContain('`stock.tick\\|exchange=NYSE,symbol=ACME`');
  });
});

describe('renderMarkdown beside the previous run', () => {
  it('sets each ratio and target of the replaced report beside this run', () => {
    const before = report();
    const b = before.designs.find((d) => d.key === 'B')!;
    b.ticksPerSec = b.ticksPerSec / 2;
    before.startedAt = Date.UTC(2026, 10, 20, 8, 0);
    const now = report();
    const markdown = renderMarkdown(now, { command: 'bench', previous: before });
    const section = markdown.slice(markdown.indexOf('## Against the previous run'));
    expect(section).toContain('run of 2026-11-20T08:00');
    const [ratioBefore, ratioNow] = [figures(before), figures(now)].map(
      (f) => f.ratios.find((r) => r.name === 'B/A')!.value,
    );
    expect(section).toContain(`| B/A | ${ratioBefore!.toFixed(2)} | ${ratioNow!.toFixed(2)} |`);
    expect(ratioNow).toBeCloseTo(ratioBefore! * 2, 9);
  });

  it('leaves the section out when the replaced report cannot be read as one', () => {
    const broken = { ...report(), designs: [] } as BenchReport;
    const markdown = renderMarkdown(report(), { command: 'bench', previous: broken });
    expect(markdown).not.toContain('## Against the previous run');
    expect(markdown).toContain('## Ratios (same run)');
  });
});

describe('renderChart', () => {
  it('renders an SVG in Node, without a canvas or a browser', async () => {
    const svg = await renderChart(report());
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('ticks/s');
    expect(svg).toContain('documents examined');
    // The grouped bars on the log axis are drawn: the axis starts at 1, not at a stack's 0.
    expect(svg).toContain('log scale with values from 1 to');
    expect(svg).toContain('series: rollups (B)');
  });
});
