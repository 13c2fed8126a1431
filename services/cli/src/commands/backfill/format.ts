import type { BackfillReport, RejectGroup, Refusal } from '@tickertape/history';
import { formatDuration } from '../../duration.js';
import { plural } from '../../plural.js';
import { formatTable } from '../../table.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `7 d`, `90 d`, `5 y`, `36 h`: retentions are whole days, usually. */
export function formatRetention(ms: number): string {
  if (ms % (365 * DAY) === 0) return `${ms / (365 * DAY)} y`;
  if (ms % DAY === 0) return `${ms / DAY} d`;
  if (ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms % MINUTE === 0) return `${ms / MINUTE} min`;
  return formatDuration(ms);
}

function grouped(n: number): string {
  return n.toLocaleString('en-US');
}

export function refusalLine(refusal: Refusal): string {
  const what = refusal.store === 'segments' ? 'the segment store' : `the ${refusal.store} level`;
  const dropped =
    refusal.store === 'segments' ? 'its days are dropped' : 'its partitions are dropped';
  return (
    `${refusal.store}: ${grouped(refusal.ticks)} ${refusal.ticks === 1 ? 'tick' : 'ticks'} refused: ` +
    `older than ${what}'s retention (${formatRetention(refusal.retentionMs)}) — ${dropped}`
  );
}

function rejectRows(groups: readonly RejectGroup[], verbose: boolean): string[] {
  const out: string[] = [];
  for (const group of groups) {
    const more = group.count - group.lines.length;
    out.push(
      `  ${group.reason} ${grouped(group.count)}: line${group.count === 1 ? '' : 's'} ` +
        `${group.lines.join(', ')}${more > 0 ? `, … (${grouped(more)} more: --verbose)` : ''}`,
    );
    if (verbose && group.messages !== undefined)
      group.lines.forEach((line, i) => out.push(`    line ${line}: ${group.messages![i]}`));
    else out.push(`    e.g. ${group.example}`);
  }
  return out;
}

/** The report on stdout: what was read, what each store took, what was refused and rejected. */
export function formatBackfill(report: BackfillReport, verbose: boolean): string {
  const lines: string[] = [
    `backfill of ${report.input} into database ${report.database} ` +
      `(sha256 ${report.sha256.slice(0, 16)}…, source partition ${report.source})`,
    `read ${plural(report.lines, 'line')} (${report.format}): ${plural(report.ticks, 'tick')}, ` +
      `${report.rejected} rejected, in ${formatDuration(report.elapsedMs)} ` +
      `(${grouped(Math.round(report.ticksPerSecond))} ticks/s)`,
    '',
  ];
  const rows: (string | number)[][] = report.levels.map(({ level, tally }) => [
    level,
    tally.ticks,
    tally.buckets,
    tally.viaShadow,
    tally.conflicts,
  ]);
  const table = formatTable(
    ['store', 'ticks', 'buckets', 'in final slots', 'already applied'],
    rows,
  );
  lines.push(table.trimEnd());
  const s = report.segments;
  if (s !== undefined) {
    lines.push(
      `segments: ${plural(s.ticks, 'tick')} → ${plural(s.points, 'point')} stored in ` +
        `${plural(s.created, 'new segment')}; ${s.late} late (older than the series' newest point ` +
        `from this input: in the rollups only, as on the live path), ${s.unchanged} unchanged, ` +
        `${s.replayed} already stored`,
    );
  }
  if (report.refusals.length > 0) {
    lines.push('', 'refused for some stores (past their retention; not an error):');
    for (const refusal of report.refusals) lines.push(`  ${refusalLine(refusal)}`);
  }
  if (report.shadows.length > 0) {
    lines.push(
      '',
      `final slots went through ${plural(report.shadows.length, 'shadow')} ` +
        `(${plural(report.seeded, 'live bucket')} copied first); the replaced buckets are kept ` +
        'until `tickertape rebuild --cleanup`:',
    );
    for (const shadow of report.shadows)
      lines.push(
        `  ${shadow.live} ${new Date(shadow.fromMs).toISOString()} … ${new Date(shadow.toMs).toISOString()}: ` +
          (shadow.swap === undefined
            ? 'nothing new (an earlier run put it in place)'
            : shadow.swap.resumed
              ? 'swapped by an earlier run'
              : `${plural(shadow.swap.written, 'bucket')} swapped in (${shadow.swap.method})`),
      );
  }
  if (report.rejected > 0) {
    lines.push('', `rejected ${plural(report.rejected, 'line')}:`);
    lines.push(...rejectRows(report.rejects, verbose));
  }
  return `${lines.join('\n')}\n`;
}
