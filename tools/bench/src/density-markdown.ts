import { markdownTable } from '@tickertape/answers';
import { fmt } from '@tickertape/capacity';
import type { DensityProbeResult } from './density.js';
import type { BytesPerTick, DensityResult } from './density-figures.js';
import { modesLabel } from './level-policy.js';

/** The issue's goal: at ≥ 1 tick/s per series, B stores at most 1/5 of C's bytes per tick. */
export const DENSITY_GOAL = { minPerSecond: 1, cOverB: 5 } as const;

export interface DensityTarget {
  target: string;
  measured: string;
  met: boolean;
}

const split = (b: BytesPerTick) =>
  `${fmt.fixed(b.total, 1)} (${fmt.fixed(b.data, 1)} + ${fmt.fixed(b.index, 1)})`;

// 1/60 reads as a tick a minute, not as 0.016666666666666666.
const rate = (d: DensityResult) =>
  Number.isInteger(d.perSecond * 1000)
    ? `${d.perSecond} ticks/s`
    : `1 tick per ${fmt.fixed(1 / d.perSecond, 0)} s`;

/**
 * The Targets row of the density goal, measured at every density the goal covers, the lower
 * densities reported beside them; `undefined` when the probe ran none the goal covers.
 */
export function densityTarget(result: DensityProbeResult): DensityTarget | undefined {
  const covered = result.densities.filter((d) => d.perSecond >= DENSITY_GOAL.minPerSecond);
  if (covered.length === 0) return undefined;
  const beside = result.densities.filter((d) => d.perSecond < DENSITY_GOAL.minPerSecond);
  const figures = (list: readonly DensityResult[]) =>
    list.map((d) => `${fmt.fixed(d.cOverB, 1)} at ${rate(d)}`).join(', ');
  return {
    target: `stored bytes per tick at ≥ ${DENSITY_GOAL.minPerSecond} tick/s per series: B ≤ 1/${DENSITY_GOAL.cOverB} of C`,
    measured: `C/B = ${figures(covered)}${beside.length > 0 ? ` (${figures(beside)})` : ''}`,
    met: covered.every((d) => d.cOverB >= DENSITY_GOAL.cOverB),
  };
}

/** The density probe's section of docs/benchmarks.md, as Markdown lines. */
export function densitySection(result: DensityProbeResult): string[] {
  const rows = result.densities.map((d) => [
    rate(d),
    `${modesLabel(d.modes)}${d.defaults ? ' (defaults)' : ''}`,
    fmt.int(d.series),
    `${fmt.fixed(d.durationMs / 60_000, 0)} min`,
    fmt.int(d.ticks),
    fmt.int(d.levels.minute.documents),
    fmt.int(d.levels.hour.documents),
    split(d.bytesPerTick.minute),
    split(d.bytesPerTick.hour),
    split(d.bytesPerTick.rollups),
    split(d.bytesPerTick.perTick),
    fmt.fixed(d.cOverB, 2),
  ]);
  const { partitions, flushTicks } = result.plan;
  return [
    '## Stored bytes per tick by density',
    '',
    ...markdownTable(
      [
        { head: 'per series' },
        { head: 'level policy' },
        { head: 'series', right: true },
        { head: 'span' },
        { head: 'ticks', right: true },
        { head: 'minute buckets', right: true },
        { head: 'hour buckets', right: true },
        { head: 'B minute B/tick (data + index)', right: true },
        { head: 'B hour B/tick', right: true },
        { head: 'B total B/tick', right: true },
        { head: 'C B/tick', right: true },
        { head: 'C/B', right: true },
      ],
      rows,
    ),
    '',
    `The same generated ticks per density (the stock and traffic profiles, every series at the given rate, seed ${result.seed}, from ${new Date(result.startMs).toISOString()}), each density in a database of its own. ` +
      `**B** is written in process, without Kafka, through the workers' write path: \`RollupWriter\` of \`@tickertape/store\` for the minute and the hour level, in flushes of ${fmt.int(flushTicks)} ticks of one of ${partitions} synthetic partitions (each series on one, offsets increasing per partition), so the bucket layout is whatever \`@tickertape/buckets\` writes. ` +
      `**C** is one document per tick (\`tickDocument\`) with the {series, ts} index. Bytes as in the design table: \`collStats.size\` plus the estimated index keys. ` +
      'The probe starts on an hour, so an hour bucket holds only the span: its bytes per tick are higher than over a whole hour. ' +
      "**Level policy**: `full` is every level in full (the defaults at these densities); `(defaults)` is what a stack decides on its own before the first tick (the scheduler's automatic rule, `autoSkipDecision`, applied as its job would: at one tick a minute the minute level is skipped).",
  ];
}
