import { DESIGN_NAMES, levelCpuPerMillion, type Figures } from './report.js';
import type { BenchReport, DesignRun } from './bench-report.js';
import { int, iso, num, table } from './markdown-table.js';

/* The report's tables of the designs, of B's levels and of the reads. */

function note(run: DesignRun): string {
  const parts: string[] = [];
  if (run.rounds !== undefined) {
    parts.push(`median of ${run.rounds.length} rounds: ${run.rounds.map(int).join(' / ')} ticks/s`);
  }
  if (run.cappedBy !== undefined) {
    parts.push(
      `stopped by its ${run.cappedBy} cap after ${int(run.ticks)} ticks; rate and costs from what it did`,
    );
  }
  if (run.shells) {
    parts.push(
      `${int(run.shells.documents)} shells inserted first in ${num(run.shells.seconds, 1)} s (not in its time)`,
    );
  }
  if (run.key === 'C' || run.key === 'D') parts.push('index {series, ts}');
  if (run.key === 'E') parts.push('_id = series:ts, no other index');
  return parts.join('; ');
}

export function designTable(report: BenchReport, derived: Figures): string {
  const rows = report.designs.map((run) => {
    const per = derived.perTick.get(run.key)!;
    const stored = run.stored;
    return [
      `**${run.key}**`,
      DESIGN_NAMES[run.key],
      int(run.ticks),
      num(run.seconds, 2),
      int(run.ticksPerSec),
      num(per.ops, 4),
      num(per.requests, 5),
      stored ? num(stored.dataBytes / run.ticks, 1) : '—',
      stored ? num(stored.indexBytes / run.ticks, 1) : '—',
      per.bytes === undefined ? '—' : num(per.bytes, 1),
      num(per.cpuPerMillion, 1),
      note(run),
    ];
  });
  return table(
    [
      '',
      'design',
      'ticks',
      'seconds',
      'ticks/s',
      'DB ops/tick',
      'DB requests/tick',
      'data B/tick',
      'index B/tick (est.)',
      'stored B/tick',
      'CPU s / M ticks',
      'notes',
    ],
    rows,
    new Set([2, 3, 4, 5, 6, 7, 8, 9, 10]),
  );
}

/** Documents and stored bytes per tick of one level's partition collections. */
function levelStored(run: DesignRun, level: string): { documents: number; bytes: number } {
  const parts = (run.stored?.byCollection ?? []).filter((c) =>
    c.name.startsWith(`rollup_${level}_`),
  );
  return {
    documents: parts.reduce((sum, c) => sum + c.documents, 0),
    bytes: parts.reduce((sum, c) => sum + c.dataBytes + c.indexBytes, 0) / run.ticks,
  };
}

export function levelTable(report: BenchReport): string {
  const rows = report.designs.flatMap((run) =>
    (run.levels ?? []).map((level) => [
      `${run.key} · ${level.level}`,
      num(level.seconds, 2),
      int(level.applied / level.seconds),
      int(level.flushes),
      int(level.buckets),
      int(level.ops),
      num(level.ops / level.buckets, 3),
      num(level.applied / level.flushes, 0),
      num(level.buckets / level.flushes, 1),
      num(level.applied / level.ops, 1),
      int(level.bulkWrites),
      int(level.conflicts),
      int(level.deadLetters),
      num(levelCpuPerMillion(level), 1),
      int(levelStored(run, level.level).documents),
      num(levelStored(run, level.level).bytes, 1),
    ]),
  );
  return table(
    [
      'worker',
      'seconds',
      'ticks/s',
      'flushes',
      'buckets written',
      'DB ops',
      'DB ops ÷ buckets',
      'ticks/flush',
      'buckets/flush',
      'ticks per DB op',
      'bulk writes',
      'replay conflicts',
      'dead letters',
      'CPU s / M ticks',
      'buckets stored',
      'stored B/tick',
    ],
    rows,
    new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]),
  );
}

export function readTable(report: BenchReport): string {
  const { window, chart, quantile } = report.reads;
  const row = (query: string, store: string, side: typeof window.rollups) => [
    query,
    store,
    int(side.examined),
    num(side.p50Ms, 1),
    num(side.p99Ms, 1),
    String(side.runs),
  ];
  const windowQuery = `10-minute average speed of ${window.sensors} sensors (${iso(window.fromMs)} – ${iso(window.toMs)})`;
  const chartQuery = `one-day chart of \`${chart.series}\` price`;
  return table(
    ['query', 'read from', 'documents examined', 'p50 ms', 'p99 ms', 'runs'],
    [
      row(
        windowQuery,
        `B's rollups: RollupReader.window (${window.pieces} bucket part(s) per sensor)`,
        window.rollups,
      ),
      row(
        windowQuery,
        "D's per-tick collection: aggregate $match {series $in, ts range} + $group",
        window.perTick,
      ),
      ...(quantile === undefined
        ? []
        : [
            row(
              `${quantile.phi * 100}th-percentile speed of ${quantile.sensors} sensors, same window`,
              "S's rollups (sketches on): RollupReader.window with quantiles",
              quantile.rollups,
            ),
            row(
              `${quantile.phi * 100}th-percentile speed of ${quantile.sensors} sensors, same window`,
              "D's per-tick collection: find {series $in, ts range}, sorted in the harness",
              quantile.perTick,
            ),
          ]),
      row(
        chartQuery,
        `B's rollups: RollupReader.auto, maxPoints 1000 → ${chart.resolution}`,
        chart.rollups,
      ),
      row(
        chartQuery,
        "D's per-tick collection: find {series, ts range} sorted by ts",
        chart.perTick,
      ),
    ],
    new Set([2, 3, 4, 5]),
  );
}
