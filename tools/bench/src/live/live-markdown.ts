import { markdownTable } from '@tickertape/answers';
import { fmt } from '@tickertape/capacity';
import type { LiveReport } from './live-types.js';
import {
  budgetGains,
  cellLabel,
  DEFAULT_BUDGETS_MS,
  LIVE_GOALS,
  liveBytes,
  liveFigures,
} from './live-figures.js';

const DESIGN_LABEL = {
  ours: 'tickertape',
  ours0: 'tickertape, budget 0 (before)',
  D: 'D insertMany',
  E: 'E upserts',
} as const;

/** The live grid's section of docs/benchmarks.md, as Markdown lines. */
export function liveSection(
  live: LiveReport,
  options: { partitions: number; markerEveryMs: number },
): string[] {
  const rows = liveFigures(live).map((r) => [
    cellLabel(r.cell),
    r.layout === undefined || r.layout === 'full'
      ? DESIGN_LABEL[r.design]
      : `${DESIGN_LABEL[r.design]} (${r.layout})`,
    r.store,
    fmt.fixed(r.opsPerTick, 3),
    fmt.fixed(r.requestsPerTick, 4),
    fmt.fixed(r.cpuUsPerTick, 1),
    r.dbCpuUsPerTick === undefined ? '—' : fmt.fixed(r.dbCpuUsPerTick, 1),
    `${r.keptUp ? 'yes' : '**no**'} (${fmt.int(r.backlogAtEnd)})`,
    r.unsettled === 0
      ? fmt.fixed(r.settleSeconds, 1)
      : `stopped at ${fmt.fixed(r.settleSeconds, 0)} (${fmt.int(r.unsettled)} left)`,
    `${fmt.fixed(r.p50Ms / 1000, 2)} / ${fmt.fixed(r.p99Ms / 1000, 2)} (${r.visible})`,
    r.coalescing === undefined ? '' : fmt.fixed(r.coalescing, 2),
  ]);
  const bytes = liveBytes(live.densities).map((b) => [
    `${fmt.fixed(b.perSecond, 4)} ticks/s`,
    b.layout,
    fmt.fixed(b.minute, 1),
    fmt.fixed(b.hour, 1),
    fmt.fixed(b.ours, 1),
    fmt.fixed(b.perTick, 1),
    fmt.fixed(b.oursOverC, 2),
  ]);
  const cell = live.cells[0];
  const budgets =
    live.budgetMs === undefined
      ? `the defaults (minute ${DEFAULT_BUDGETS_MS.minute / 1000} s, hour ${DEFAULT_BUDGETS_MS.hour / 1000} s)`
      : `\`FRESHNESS_BUDGET_MS=${live.budgetMs}\` at every level`;
  return [
    '## Live: while a producer publishes',
    '',
    ...markdownTable(
      [
        { head: 'cell (series × rate each)' },
        { head: 'design' },
        { head: 'store' },
        { head: 'DB ops/tick', right: true },
        { head: 'DB requests/tick', right: true },
        { head: 'consumer CPU µs/tick', right: true },
        { head: 'DB server CPU µs/tick', right: true },
        { head: 'kept up (backlog)' },
        { head: 'settle s', right: true },
        { head: 'visible p50 / p99 s', right: true },
        { head: 'ops ÷ ideal', right: true },
      ],
      rows,
    ),
    '',
    `Each cell publishes for ${fmt.fixed((cell?.durationMs ?? 0) / 1000, 0)} s from a producer process of its own (\`tools/bench/src/live/producer-main.ts\`: the traffic profile of \`tickertape loadgen\`, sensors in round robin, two numeric fields and a string per tick, the wall clock as event time) on a topic of its own (${options.partitions} partitions) per design, while that design consumes it: **tickertape** is a minute and an hour worker as processes with ${budgets}, and again with \`FRESHNESS_BUDGET_MS=0\` (before budgets); **D** and **E** run in the harness process, writing each fetched batch with insertMany of one document per tick, or as unordered upserts of one document per tick keyed by series and time. ` +
      `**DB ops/tick**: bucket updates, inserted or upserted documents per tick written; **DB requests/tick**: bulk writes or insertMany calls. **Consumer CPU**: the worker's \`process_cpu_seconds_total\`, or the harness's \`process.cpuUsage()\` for D and E (with its marker producer and poller). **DB server CPU**: the database process's CPU (/proc) from the producer's start to the last commit ÷ records produced. ` +
      `**Kept up**: records produced but not yet consumed when the producer stopped; held records count as consumed (yes = at most ${LIVE_GOALS.keptUpSeconds} s of the rate). **Settle**: from the producer's end until the design has committed everything (the budget's tail); a design still behind a minute after the producer's end (plus the level's budget) is stopped there, and what it left is shown (it did not keep up). ` +
      `**Visible**: every ${options.markerEveryMs} ms a marker tick on a series of its own; from its \`send\` until its bucket is found by \`_id\` (a poll every 50 ms), or for D and E until their write holding it was acknowledged (finding a document by series scans the stand-in's collection, and polling that would load the server being measured). ` +
      '**ops ÷ ideal**: operations ÷ one write per bucket per budget window (live/live-figures.ts `idealOperations`: series × ⌈run ÷ budget⌉ × min(1, rate × budget), plus windows straddling a bucket boundary, plus one per marker).',
    '',
    '### Before/after: what the budgets changed (same run)',
    '',
    ...markdownTable(
      [
        { head: 'cell' },
        { head: 'level' },
        { head: 'DB ops/tick, budget 0', right: true },
        { head: 'DB ops/tick, budgets', right: true },
        { head: 'fewer operations', right: true },
      ],
      budgetGains(live).map((g) => [
        cellLabel(g.cell),
        g.store,
        fmt.fixed(g.before, 3),
        fmt.fixed(g.after, 3),
        `${fmt.fixed(g.before / g.after, 1)}×`,
      ]),
    ),
    '',
    "Budget 0 is the workers as they were before budgets (every fetched batch written at once) and before the level policy, on a topic of its own in the same cell, right after the budgeted run. The budgeted run's database has the level policy the docs suggest for the cell's density (`suggestedModes`: at 1 tick/min the minute level skipped and the hour level compact, at 1 per 10 s the minute level skipped, at 1/s and above the full layout): where a level skips the cell's metrics its workers only write the probe's markers.",
    '',
    "### Stored bytes per tick at the grid's densities (whole hours)",
    '',
    ...markdownTable(
      [
        { head: 'per series' },
        { head: 'level policy' },
        { head: 'minute B/tick', right: true },
        { head: 'hour B/tick', right: true },
        { head: 'ours B/tick', right: true },
        { head: 'doc per tick B/tick', right: true },
        { head: 'ours ÷ doc per tick', right: true },
      ],
      bytes,
    ),
    '',
    "A minute of live traffic fills no hour bucket, so the grid's bytes come from the density probe over a whole hour per density: the same fold and writer as the workers, synthetic offsets (data + estimated index keys, as in the table above), each density under the level policy suggested for it and the sparse ones once more in the full layout (before). The day level is not counted (it stores 24 per-hour totals per field and series a day).",
  ];
}
