import type { BenchJson } from './input.js';
import { MODEL_LEVELS, type ModelLevel } from './input-types.js';
import { ASSUMPTIONS, flushSpanSeconds, operationsPerSecond, SLOT_SECONDS } from './model.js';
import { markdownTable } from '@tickertape/answers';
import { fmt } from './figures-format.js';

const isModelLevel = (store: string): store is ModelLevel =>
  (MODEL_LEVELS as readonly string[]).includes(store);

/**
 * The operations formula against the live grid: for each cell the benchmark published while the
 * workers ran at their budgets, the model's operations per second (min(R, S ÷ E + S ÷ slot) with
 * E the level's flush span at that rate) beside what the workers measured. Empty for a report
 * from before the live grid.
 */
export function liveCheckSection(json: BenchJson): string[] {
  if (json.live === undefined) return [];
  const partitions = json.settings.partitions ?? ASSUMPTIONS.minPartitions;
  const rows: string[][] = [];
  for (const cell of json.live.cells) {
    const ours = cell.designs.find((d) => d.design === 'ours');
    if (ours === undefined) continue;
    for (const store of ours.stores) {
      if (!isModelLevel(store.store)) continue;
      const level = store.store;
      const measured = store.ops / ours.producingSeconds;
      if (ours.modes?.[level] === 'skip') {
        // The level policy skips the cell's metrics there: its writes are the markers'.
        rows.push([
          `${fmt.int(cell.cell.series)} × ${fmt.fixed(cell.cell.perSecond, 4)}/s`,
          `${level} (skipped)`,
          '—',
          '0',
          fmt.int(measured),
          '—',
        ]);
        continue;
      }
      const budgetS =
        json.live.budgetMs === undefined ? ASSUMPTIONS.budgetS[level] : json.live.budgetMs / 1000;
      const spanS = flushSpanSeconds(level, cell.rate, partitions, 1, budgetS);
      const model = operationsPerSecond(cell.rate, cell.cell.series, spanS, SLOT_SECONDS[level]);
      rows.push([
        `${fmt.int(cell.cell.series)} × ${fmt.fixed(cell.cell.perSecond, 4)}/s`,
        level,
        fmt.fixed(spanS, 1),
        fmt.int(model),
        fmt.int(measured),
        fmt.fixed(measured / model, 2),
      ]);
    }
  }
  return [
    '## The operations formula, live',
    '',
    "The benchmark's live grid (one worker per level, its topic's partitions, the budgets it ran with) against the formula above:",
    '',
    ...markdownTable(
      [
        { head: 'cell (series × rate each)' },
        { head: 'level' },
        { head: 'E s', right: true },
        { head: 'model ops/s', right: true },
        { head: 'measured ops/s', right: true },
        { head: 'measured ÷ model', right: true },
      ],
      rows,
    ),
    '',
    "Measured: the level's `tickertape_db_operations_total` over the run ÷ the seconds the producer published (the tail written after it counts too, and so does one write per latency marker, about one per 100 ms). Above 1 where the run holds few budget windows and the markers' own writes weigh (the hour level of a dense cell: a minute's run is one window); below 1 where flushes waited longer than their budget — a database that took a while to answer — which only makes flushes fuller. A level marked skipped ran under the level policy suggested for the cell's density (docs/data-layout.md): it writes none of the cell's ticks, only the markers.",
  ];
}
