import { SKETCH_ALPHA } from '@tickertape/buckets';
import type { BenchReport, DesignRun } from './bench-report.js';
import type { DensityResult } from './density-figures.js';
import { BENCH_WEIGHT } from './level-policy.js';
import { int, num, table } from './markdown-table.js';
import type { Target } from './target.js';
import { bytesPerTick, levelCpuPerMillion } from './design-runs.js';

/**
 * Issue 36's goals: the write side's costs, and the percentile read as cheap as the average
 * ("same p99": within a quarter of it, in the same run) and within α of the exact quantile.
 */
export const SKETCH_GOALS = {
  cpuOverOff: 1.3,
  bytesOverOff: 2,
  quantileDocuments: 100,
  quantileP99OverAverage: 1.25,
} as const;

const findDesign = (report: BenchReport, key: 'B' | 'S'): DesignRun | undefined =>
  report.designs.find((d) => d.key === key);

/** Each level's worker CPU per million ticks with sketches (S) ÷ without (B), same run. */
export function sketchCpuRatios(report: BenchReport): { level: string; off: number; on: number }[] {
  const b = findDesign(report, 'B');
  const s = findDesign(report, 'S');
  if (b === undefined || s === undefined) return [];
  return (b.levels ?? []).flatMap((off) => {
    const on = s.levels?.find((l) => l.level === off.level);
    return on === undefined
      ? []
      : [{ level: off.level, off: levelCpuPerMillion(off), on: levelCpuPerMillion(on) }];
  });
}

/** Sketches off and on at the same density: the probe's pairs, in the probe's order. */
export function sketchPairs(report: BenchReport): { off: DensityResult; on: DensityResult }[] {
  const densities = report.sketchDensity?.densities ?? [];
  return densities
    .filter((d) => !d.sketches)
    .flatMap((off) => {
      const on = densities.find((d) => d.sketches && d.perSecond === off.perSecond);
      return on === undefined ? [] : [{ off, on }];
    });
}

const rate = (perSecond: number) =>
  perSecond >= 1 ? `${num(perSecond, 0)}/s` : `1/${num(1 / perSecond, 0)} s`;

/** The targets rows of sketches: worker CPU and stored bytes, on ÷ off. */
export function sketchTargets(report: BenchReport): Target[] {
  const targets: Target[] = [];
  const cpu = sketchCpuRatios(report);
  if (cpu.length > 0)
    targets.push({
      target: `worker CPU per tick with sketches on ≤ ${SKETCH_GOALS.cpuOverOff} × off (S ÷ B, each level)`,
      measured: cpu
        .map((c) => `${c.level} ${num(c.on, 1)} ÷ ${num(c.off, 1)} = ${num(c.on / c.off, 2)}`)
        .join('; '),
      met: cpu.every((c) => c.on / c.off <= SKETCH_GOALS.cpuOverOff),
    });
  const pairs = sketchPairs(report);
  if (pairs.length > 0)
    targets.push({
      target: `stored bytes per tick with sketches on ≤ ${SKETCH_GOALS.bytesOverOff} × off (minute + hour), at 1 tick/s and 1 tick/min`,
      measured: pairs
        .map(
          ({ off, on }) =>
            `${rate(off.perSecond)}: ${num(on.bytesPerTick.rollups.total, 1)} ÷ ${num(off.bytesPerTick.rollups.total, 1)} = ${num(on.bytesPerTick.rollups.total / off.bytesPerTick.rollups.total, 2)}`,
        )
        .join('; '),
      met: pairs.every(
        ({ off, on }) =>
          on.bytesPerTick.rollups.total <=
          SKETCH_GOALS.bytesOverOff * off.bytesPerTick.rollups.total,
      ),
    });
  const { quantile, window } = report.reads;
  if (quantile !== undefined) {
    const p99Ratio = quantile.rollups.p99Ms / window.rollups.p99Ms;
    targets.push({
      target: `"85th-percentile speed of 50 sensors over 10 minutes": ≤ ${SKETCH_GOALS.quantileDocuments} documents examined, p99 ≤ ${SKETCH_GOALS.quantileP99OverAverage} × the average's (same run), every answer within α = ${SKETCH_ALPHA} of the exact quantile`,
      measured: `${quantile.rollups.examined} documents, p99 ${num(quantile.rollups.p99Ms, 1)} ms ÷ ${num(window.rollups.p99Ms, 1)} ms = ${num(p99Ratio, 2)}, largest relative error ${num(quantile.maxDifference, 4)}, sketches cover ${int(quantile.covered)} of ${int(quantile.ticks)} ticks`,
      met:
        quantile.rollups.examined <= SKETCH_GOALS.quantileDocuments &&
        quantile.sensors === 50 &&
        p99Ratio <= SKETCH_GOALS.quantileP99OverAverage &&
        quantile.maxDifference <= SKETCH_ALPHA * (1 + 1e-9) &&
        quantile.covered === quantile.ticks,
    });
  }
  return targets;
}

/** The report's section on what sketches cost. */
export function sketchSection(report: BenchReport): string[] {
  const b = findDesign(report, 'B');
  const s = findDesign(report, 'S');
  const pairs = sketchPairs(report);
  if ((b === undefined || s === undefined) && pairs.length === 0) return [];
  const lines = ['## Quantile sketches, spread and VWAP: what they cost', ''];
  if (b !== undefined && s !== undefined) {
    const bytes = (run: DesignRun) => bytesPerTick(run) ?? Number.NaN;
    const rows = sketchCpuRatios(report).map((c) => [
      `${c.level} worker, CPU s per M ticks`,
      num(c.off, 1),
      num(c.on, 1),
      num(c.on / c.off, 2),
    ]);
    lines.push(
      table(
        ['same tick set, same run', 'B (off)', 'S (on)', 'S/B'],
        [
          [
            'ticks/s (median round)',
            int(b.ticksPerSec),
            int(s.ticksPerSec),
            num(s.ticksPerSec / b.ticksPerSec, 2),
          ],
          ...rows,
          [
            'stored bytes per tick',
            num(bytes(b), 1),
            num(bytes(s), 1),
            num(bytes(s) / bytes(b), 2),
          ],
        ],
        new Set([1, 2, 3]),
      ),
      '',
      `**S** is B with the level policy an analyst would set for percentiles and VWAP: sketches on for both metrics and \`${BENCH_WEIGHT.field}\` of \`${BENCH_WEIGHT.metric}\` weighted by \`${BENCH_WEIGHT.by}\` (\`tickertape levels sketch …\`, \`levels weight …\`). B and S alternate with A in every round; the median round of each is shown. Σx² is kept in both (it is written for every field).`,
      '',
    );
  }
  if (pairs.length > 0) {
    lines.push(
      table(
        [
          'per series',
          'series',
          'ticks',
          'off: minute + hour B/tick',
          'on: minute + hour B/tick',
          'on/off',
        ],
        pairs.map(({ off, on }) => [
          rate(off.perSecond),
          int(off.series),
          int(off.ticks),
          num(off.bytesPerTick.rollups.total, 1),
          num(on.bytesPerTick.rollups.total, 1),
          num(on.bytesPerTick.rollups.total / off.bytesPerTick.rollups.total, 2),
        ]),
        new Set([1, 2, 3, 4, 5]),
      ),
      '',
      'The density probe (below) run twice per density on the same generated ticks, in the full layout: sketches off, then on (with the weighted price). Bytes as in the design table.',
      '',
    );
  }
  return lines;
}
