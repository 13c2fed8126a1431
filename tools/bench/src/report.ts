import { densityTarget } from './density-markdown.js';
import { liveTargets } from './live/live-figures.js';
import { bytesPerTick, levelCpuPerMillion } from './design-runs.js';
import { sketchTargets } from './sketch-markdown.js';
import type { Target } from './target.js';
import type { LevelRun } from './workers.js';
import type { BenchReport, DesignKey, DesignRun } from './bench-report.js';

export const DESIGN_NAMES: Readonly<Record<DesignKey, string>> = {
  A: 'no-op (kafkajs eachBatch, decode, drop)',
  B: 'tickertape (minute + hour workers)',
  C: 'naive: awaited insertOne per tick',
  D: 'insertMany per batch, doc per tick',
  E: 'sink-style: upsert per tick, unordered bulk per batch',
  F: 'tickertape with preallocated shells',
  S: 'tickertape with quantile sketches and VWAP',
};

export interface Ratio {
  name: string;
  value: number;
  /** How it is computed, for the reader. */
  of: string;
}

export type { Target } from './target.js';
export { bytesPerTick, levelCpuPerMillion } from './design-runs.js';

export interface Figures {
  perTick: Map<DesignKey, { ops: number; requests: number; bytes?: number; cpuPerMillion: number }>;
  ratios: Ratio[];
  targets: Target[];
  /** Per level of B: db operations ÷ buckets written (coalescing: 1 exactly). */
  coalescing: { level: string; ratio: number }[];
}

export function design(report: BenchReport, key: DesignKey): DesignRun {
  const run = report.designs.find((d) => d.key === key);
  if (run === undefined) throw new Error(`design ${key} is missing from the report`);
  return run;
}

export function coalescingRatio(level: LevelRun): number {
  return level.ops / level.buckets;
}

/** Goals of the rows issue 15 added: worker CPU per tick against A's, the seed's read. */
export const GOALS = {
  workerCpuOverA: 1.25,
  windowDocuments: 100,
  windowP99Ms: 20,
} as const;

/** Every derived figure: per-tick costs, the ratios the issue asks for, the targets met or missed. */
export function figures(report: BenchReport): Figures {
  const perTick: Figures['perTick'] = new Map();
  for (const run of report.designs) {
    const bytes = bytesPerTick(run);
    perTick.set(run.key, {
      ops: run.ops / run.ticks,
      requests: run.requests / run.ticks,
      ...(bytes === undefined ? {} : { bytes }),
      cpuPerMillion: (run.cpuSeconds * 1e6) / run.ticks,
    });
  }
  const [a, b, c, d, e, f] = (['A', 'B', 'C', 'D', 'E', 'F'] as const).map((k) =>
    design(report, k),
  );
  const bytes = (run: DesignRun) => bytesPerTick(run) ?? Number.NaN;
  const { window, chart } = report.reads;
  const ratios: Ratio[] = [
    { name: 'B/A', value: b!.ticksPerSec / a!.ticksPerSec, of: 'ticks/s, tickertape ÷ no-op' },
    { name: 'B/C', value: b!.ticksPerSec / c!.ticksPerSec, of: 'ticks/s, tickertape ÷ naive' },
    { name: 'B/D', value: b!.ticksPerSec / d!.ticksPerSec, of: 'ticks/s, tickertape ÷ insertMany' },
    { name: 'B/E', value: b!.ticksPerSec / e!.ticksPerSec, of: 'ticks/s, tickertape ÷ sink-style' },
    {
      name: 'bytes C/B',
      value: bytes(c!) / bytes(b!),
      of: 'stored bytes per tick, naive ÷ tickertape',
    },
    {
      name: 'docs examined C/B (10-min avg, 50 sensors)',
      value: window.perTick.examined / window.rollups.examined,
      of: 'per-tick collection ÷ rollups',
    },
    {
      name: 'docs examined C/B (one-day chart)',
      value: chart.perTick.examined / chart.rollups.examined,
      of: 'per-tick collection ÷ rollups',
    },
    {
      name: 'shells: F/B ticks/s',
      value: f!.ticksPerSec / b!.ticksPerSec,
      of: 'with ÷ without shells',
    },
    {
      name: 'shells: F/B DB ops per tick',
      value: f!.ops / f!.ticks / (b!.ops / b!.ticks),
      of: 'with ÷ without shells',
    },
    {
      name: 'shells: F/B bytes per tick',
      value: bytes(f!) / bytes(b!),
      of: 'with ÷ without shells',
    },
  ];
  const coalescing = (b!.levels ?? []).map((level) => ({
    level: level.level,
    ratio: coalescingRatio(level),
  }));
  const latency = report.latency;
  const allVisible = latency.visible === latency.markers && latency.markers > 0;
  const ratio = (name: string) => ratios.find((r) => r.name === name)!.value;
  const fixed = (value: number, digits = 2) => value.toFixed(digits);
  const aCpu = (a!.cpuSeconds * 1e6) / a!.ticks;
  const cpuTargets: Target[] = (b!.levels ?? []).map((level) => {
    const perMillion = levelCpuPerMillion(level);
    return {
      target: `worker CPU per tick, ${level.level} level ≤ ${GOALS.workerCpuOverA} × A`,
      measured: `${fixed(perMillion, 1)} ÷ ${fixed(aCpu, 1)} CPU s per M ticks = ${fixed(perMillion / aCpu)} × A`,
      met: perMillion / aCpu <= GOALS.workerCpuOverA,
    };
  });
  const density = report.density && densityTarget(report.density);
  const targets: Target[] = [
    {
      target: 'B ≥ 0.8 × A (ticks/s)',
      measured: `B/A = ${fixed(ratio('B/A'))}`,
      met: ratio('B/A') >= 0.8,
    },
    {
      target: 'B ≥ 20 × C (ticks/s)',
      measured: `B/C = ${fixed(ratio('B/C'), 1)}`,
      met: ratio('B/C') >= 20,
    },
    ...cpuTargets,
    {
      target: 'DB operations per flush = distinct buckets touched (coalescing ratio 1.0)',
      measured: coalescing.map((c) => `${c.level} ${fixed(c.ratio, 3)}`).join(', '),
      met: coalescing.length > 0 && coalescing.every((c) => c.ratio === 1),
    },
    {
      target: 'stored bytes per tick: B ≤ 1/5 of C',
      measured: `C/B = ${fixed(ratio('bytes C/B'), 1)}`,
      met: ratio('bytes C/B') >= 5,
    },
    // Stored bytes per tick at ≥ 1 tick/s per series, from the density probe (density-markdown.ts).
    ...(density ? [density] : []),
    {
      target: `"10-minute average of 50 sensors": ≤ ${GOALS.windowDocuments} documents examined and p99 ≤ ${GOALS.windowP99Ms} ms`,
      measured: `${window.rollups.examined} documents (${window.sensors} sensors), p99 ${fixed(window.rollups.p99Ms, 1)} ms`,
      met:
        window.rollups.examined <= GOALS.windowDocuments &&
        window.sensors === 50 &&
        window.rollups.p99Ms <= GOALS.windowP99Ms,
    },
    {
      target: 'produce → visible p99 ≤ 2 s at half of B’s maximum rate',
      measured: `p99 ${fixed(latency.p99Ms / 1000)} s, ${latency.visible}/${latency.markers} markers visible`,
      met: allVisible && latency.p99Ms <= 2000,
    },
    ...(report.live ? liveTargets(report.live) : []),
    ...sketchTargets(report),
  ];
  return { perTick, ratios, targets, coalescing };
}
