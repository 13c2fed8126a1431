import type { BenchReport, DesignRun } from './bench-report.js';
import type { DensityResult } from './density-figures.js';
import { BENCH_WEIGHT } from './level-policy.js';
import { int, num, table } from './markdown-table.js';
import type { Target } from './target.js';
import type { LevelRun } from './workers.js';

/** A level's CPU per million ticks it applied (as report.ts computes it for B's rows). */
const levelCpuPerMillion = (level: LevelRun) => (level.cpuSeconds * 1e6) / level.applied;

/** Issue 36's goals for the write side of quantile sketches. */
export const SKETCH_GOALS = { cpuOverOff: 1.3, bytesOverOff: 2 } as const;

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
    const bytes = (run: DesignRun) =>
      run.stored === undefined
        ? Number.NaN
        : (run.stored.dataBytes + run.stored.indexBytes) / run.ticks;
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
