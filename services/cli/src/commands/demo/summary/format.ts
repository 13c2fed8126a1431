import { LEVELS } from '@tickertape/buckets';
import { isoTime } from '../../../format/time.js';
import { plural } from '../../../plural.js';
import { formatTable } from '../../../table.js';
import type { Examined, SummaryReport } from './run.js';

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const roundOrEmpty = (value: number | null | undefined) =>
  value === null || value === undefined ? null : round(value);

function examinedLine(part: Examined, detail = ''): string {
  return `  examined ${plural(part.examined, 'document')} (${part.discoveryExamined} to find the series${detail})\n`;
}

/** Workers that did not answer, one line each (the demo's have stopped once it has ended). */
function notAnswering(report: SummaryReport): string {
  return report.workersNotAnswering
    .map(
      ({ url, reason }) => `  ${url}: ${reason}; its figures are in its /metrics while it runs\n`,
    )
    .join('');
}

export function formatSummary(report: SummaryReport): string {
  const { averages, candles } = report;
  const parts = [
    'workers',
    (report.workers.length === 0
      ? ''
      : formatTable(
          [
            'level',
            'ticks consumed',
            'ticks applied',
            'dead letters',
            'flushes',
            'buckets written',
            'db ops',
            'db ops per tick',
            'ticks per db op',
          ],
          report.workers.map((w) => [
            w.level,
            w.ticksConsumed,
            w.ticksApplied,
            w.deadLetters,
            w.flushes,
            w.bucketsWritten,
            w.dbOperations,
            round(w.dbOperations / Math.max(w.ticksApplied, 1), 4),
            round(w.ticksApplied / Math.max(w.dbOperations, 1), 1),
          ]),
        )) + notAnswering(report),
    'buckets in the database',
    formatTable(
      ['level', 'buckets'],
      LEVELS.map((level) => [level, report.bucketsByLevel[level]]),
    ),
    `average speed over the last ${report.windowMinutes} minutes ` +
      `(${isoTime(averages.fromMs)} to ${isoTime(averages.toMs)})`,
    formatTable(
      ['series', 'avg speed', 'readings'],
      averages.rows.map((a) => [a.series, roundOrEmpty(a.average), a.readings]),
    ) +
      `  examined ${plural(averages.examined, 'document')} (${plural(averages.piecesPerSeries, 'bucket part')} ` +
      `per series for the window, the series found in them)\n`,
    `price candles for the hour from ${isoTime(candles.hourStart)}` +
      (candles.source === undefined ? '' : ` (${candles.source})`),
    formatTable(
      ['series', 'open', 'high', 'low', 'close', 'ticks'],
      candles.rows.map(({ series, candle }) => [
        series,
        roundOrEmpty(candle?.open),
        roundOrEmpty(candle?.high),
        roundOrEmpty(candle?.low),
        roundOrEmpty(candle?.close),
        candle?.volume ?? null,
      ]),
    ) + examinedLine(candles),
  ];
  return parts.join('\n');
}
