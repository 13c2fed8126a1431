import { isoTime } from '../../format/time.js';
import { formatTable } from '../../table.js';
import type { TailedRecord, TailReport } from './run.js';

function valueText(record: TailedRecord): string {
  if (record.undecodable !== undefined) return `(undecodable: ${record.undecodable})`;
  return JSON.stringify(record.value);
}

function reasonText(record: TailedRecord): string | null {
  const letter = record.deadLetter;
  if (letter === undefined) return null;
  return letter.detail === undefined ? letter.reason : `${letter.reason}: ${letter.detail}`;
}

function cells(record: TailedRecord): (string | number | null)[] {
  return [
    record.partition,
    record.offset,
    isoTime(record.timestamp),
    record.key,
    valueText(record),
  ];
}

/** One line a record, the value last but for a dead letter's reason: the longest columns at the end. */
export function formatTail(report: TailReport): string {
  const letters = report.records.some((record) => record.deadLetter !== undefined);
  const header = ['partition', 'offset', 'time', 'key', 'value', ...(letters ? ['reason'] : [])];
  return formatTable(
    header,
    report.records.map((record) => [...cells(record), ...(letters ? [reasonText(record)] : [])]),
  );
}

/**
 * A record of `tail --follow`, as it comes: the table's cells two spaces apart, unaligned (the
 * next record's widths are not known yet), a dead letter's reason last.
 */
export function followLine(record: TailedRecord): string {
  const reason = reasonText(record);
  return `${[...cells(record), ...(reason === null ? [] : [reason])].join('  ')}\n`;
}

/** One JSON object a record, times as ISO-8601 UTC. */
export function jsonLine(topic: string, record: TailedRecord): string {
  const { deadLetter, ...rest } = record;
  return `${JSON.stringify({
    topic,
    ...rest,
    timestamp: isoTime(record.timestamp),
    ...(deadLetter === undefined
      ? {}
      : {
          deadLetter: {
            ...deadLetter,
            ...(deadLetter.at === undefined ? {} : { at: isoTime(deadLetter.at) }),
          },
        }),
  })}\n`;
}

/** One JSON object a line (NDJSON). */
export function tailJson(report: TailReport): string {
  return report.records.map((record) => jsonLine(report.topic, record)).join('');
}

/** Said on stderr when nothing was shown, so an empty answer is not taken for a broken one. */
export function emptyNote(report: TailReport): string {
  if (report.records.length > 0) return '';
  const read = [...report.ranges]
    .sort(([a], [b]) => a - b)
    .map(([partition, range]) => `${partition}:${range.start}-${range.end}`)
    .join(' ');
  return `tickertape: no records of ${report.topic} in the offsets read (partition:from-to) ${read || 'none'}\n`;
}
