import type { GroupsReport, StoreGroups } from './run.js';
import { plural } from '../../plural.js';
import { formatTable } from '../../table.js';

const seconds = (value: number) => Math.round(value * 10) / 10;

function formatStore(entry: StoreGroups): string {
  const { store, status, rates } = entry;
  const lag = `lag ${plural(status.lagRecords, 'record')}, ${seconds(status.lagSeconds)} s`;
  const rate =
    rates === null
      ? ''
      : `, ${Math.round(rates.producedPerSec)} records/s in, ${Math.round(rates.committedPerSec)}/s committed`;
  const lines = [
    `${store}: group ${status.groupId}, ${status.state}, ${plural(status.members.length, 'member')}, ${lag}${rate}`,
  ];
  if (status.members.length > 0) {
    lines.push(
      indent(
        formatTable(
          ['member', 'client id', 'host', 'partitions'],
          status.members.map((m) => [
            m.memberId,
            m.clientId,
            m.host,
            m.partitions.length === 0 ? '(none)' : m.partitions.join(','),
          ]),
        ),
      ),
    );
  }
  lines.push(
    indent(
      formatTable(
        ['partition', 'committed', 'end', 'lag', 'lag s', 'member'],
        status.partitions.map((p) => [
          p.partition,
          p.committed === null ? null : Number(p.committed),
          Number(p.end),
          p.lagRecords,
          seconds(p.lagSeconds),
          p.memberId,
        ]),
      ),
    ),
  );
  for (const problem of entry.problems) lines.push(`  FAIL ${problem}`);
  for (const hint of entry.hints) lines.push(`  hint ${hint}`);
  return lines.join('\n');
}

const indent = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');

/** The report as an operator reads it: one block per store, then groups nobody checks. */
export function formatGroups(report: GroupsReport): string {
  const blocks = report.stores.map(formatStore);
  if (report.otherGroups.length > 0) {
    blocks.push(
      `other groups with offsets on ${report.topic} (not checked: a retired level, a tool's leftover?):\n` +
        report.otherGroups.map((g) => `  ${g}`).join('\n') +
        '\n  remove one that is done with: kafka-consumer-groups.sh --delete --group <id>',
    );
  }
  return `${blocks.join('\n\n')}\n`;
}
