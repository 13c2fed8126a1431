import { formatDuration } from '../../duration.js';
import { isoTime } from '../../format/time.js';
import { plural } from '../../plural.js';
import { formatTable } from '../../table.js';
import type { RebuildPlan, RebuildReport } from '@tickertape/history';

function range(plan: RebuildPlan): string {
  return `${plan.level} buckets from ${isoTime(plan.fromMs)} to ${isoTime(plan.toMs)}`;
}

function source(plan: RebuildPlan): string {
  return plan.source === 'topic' ? `the topic ${plan.topic}` : `the ${plan.source} buckets`;
}

export function formatRebuildPlan(plan: RebuildPlan): string {
  const lines = [
    `rebuild plan (dry run, nothing written): ${range(plan)} from ${source(plan)}\n\n`,
    formatTable(
      ['partition', 'from', 'to', 'whole', 'live buckets', 'source buckets'],
      plan.partitions.map((p) => [
        p.live,
        isoTime(p.fromMs),
        isoTime(p.toMs),
        p.whole ? 'yes' : 'no',
        p.liveBuckets,
        p.sourceBuckets ?? null,
      ]),
    ),
  ];
  if (plan.topicPartitions !== undefined) {
    const records = plan.topicPartitions.reduce(
      (sum, p) => sum + Number(p.high) - Number(p.low),
      0,
    );
    lines.push(
      `\ntopic ${plan.topic}: ${plan.topicPartitions.map((p) => `p${p.partition} ${p.low}..${p.high}`).join(', ')} (${plural(records, 'record')} to read)\n`,
    );
  }
  return lines.join('');
}

function show(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function formatRebuild(report: RebuildReport, limit: number): string {
  const { plan, read } = report;
  const lines = [
    `rebuild ${report.runId}${report.resumed ? ' (resumed)' : ''}: ${range(plan)} from ${source(plan)}\n`,
  ];
  if (read.kind === 'topic')
    lines.push(
      `read: ${plural(read.records, 'record')}, ${plural(read.ticks, 'tick')} of the range; left out as the workers leave them out: ${read.rejected} not ticks, ${read.dropped} dead-lettered for their time\n`,
    );
  else if (read.kind === 'level')
    lines.push(
      `read: ${plural(read.buckets, `${plan.source} bucket`)} holding ${plural(read.ticks, 'tick')}\n`,
    );
  else lines.push('read: nothing (the shadows had been checked; the swap was carried on)\n');
  if (report.differences.length > 0) {
    lines.push(
      '\n',
      formatTable(
        ['kind', 'id', 'field', 'expected', 'shadow'],
        report.differences
          .slice(0, limit)
          .map((d) => [d.kind, d.id, d.path ?? '', show(d.expected), show(d.actual)]),
      ),
    );
    if (report.differences.length > limit)
      lines.push(`… and ${report.differences.length - limit} more (--limit)\n`);
    lines.push(
      `\n${plural(report.differences.length, 'difference')} between the shadows and their source: nothing swapped (the shadows stay until --cleanup)\n`,
    );
    return lines.join('');
  }
  if (report.live !== undefined) {
    const l = report.live;
    lines.push(
      `against the live buckets: ${l.same} same, ${l.changed} changed, ${l.restored} restored, ${l.removed} removed; ticks ${l.liveTicks} live → ${l.shadowTicks} rebuilt\n`,
    );
  }
  lines.push(
    '\n',
    formatTable(
      ['partition', 'swap', 'written', 'replaced', 'deleted'],
      report.swapped.map((s) => [s.live, s.method, s.written, s.replaced, s.deleted]),
    ),
  );
  const rate = report.elapsedMs > 0 ? Math.round((report.written * 1000) / report.elapsedMs) : 0;
  lines.push(
    `\n${plural(report.swapped.length, 'partition')}, ${plural(report.written, 'bucket')} written, ${report.swapped.reduce((sum, s) => sum + s.replaced, 0)} replaced, 0 differences, ${formatDuration(report.elapsedMs)} (${rate} buckets/s; fold ${formatDuration(report.phases.foldMs)}, check ${formatDuration(report.phases.checkMs)}, swap ${formatDuration(report.phases.swapMs)})\n`,
    `the replaced buckets are kept until \`tickertape rebuild --cleanup\`\n`,
  );
  return lines.join('');
}

export function formatCleanup(dropped: readonly string[], dryRun: boolean): string {
  if (dropped.length === 0) return 'nothing to clean up\n';
  return `${dryRun ? 'would drop' : 'dropped'} ${plural(dropped.length, 'collection')}:\n${dropped.map((name) => `  ${name}\n`).join('')}`;
}
