import type { DeadLetterReason, Tick, TickRejectionReason } from '@tickertape/tick';
import { recordId, type Difference, type TruthTick } from './truth.js';

/** One record of the tick topic as the checker decoded it (with the workers' codec). */
export type DecodedRecord = {
  partition: number;
  offset: number;
} & ({ tick: Tick; series: string } | { rejected: TickRejectionReason });

/** One record of the dead-letter topic, by its headers. */
export interface DeadLetterEntry {
  sourcePartition: number;
  sourceOffset: number;
  reason: string;
  /** When the worker dead-lettered it (wall clock, ms). */
  at: number;
}

export interface LatenessBounds {
  /** The workers' MAX_LATENESS_MS and MAX_FUTURE_MS. */
  maxLatenessMs: number;
  maxFutureMs: number;
}

export interface Reconciled {
  /** The ticks every level must hold: valid and not dead-lettered for their time. */
  ticks: TruthTick[];
  differences: Difference[];
  tally: {
    records: number;
    valid: number;
    /** Records that can never be ticks, by reason (the checker's own decode). */
    rejected: Record<string, number>;
    /** Valid ticks the workers dead-lettered for their event time, by reason. */
    dropped: Record<string, number>;
    /** Dead-letter records of this topic, repeats of a source record included. */
    deadLetters: number;
  };
}

const TIME_REASONS: ReadonlySet<DeadLetterReason> = new Set(['TOO_LATE', 'TIMESTAMP_OUT_OF_RANGE']);

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Whether the worker could rightly judge this tick too late or too early when it dead-lettered it. */
function timeVerdictHolds(reason: string, ts: number, at: number, bounds: LatenessBounds): boolean {
  if (reason === 'TOO_LATE') return ts < at - bounds.maxLatenessMs;
  return ts > at + bounds.maxFutureMs || ts < 0;
}

/**
 * Which records must be in the rollups and which in the dead-letter topic. A record that can
 * never be a tick must be dead-lettered with the reason the checker finds. A valid tick the
 * workers dead-lettered for its time (TOO_LATE, TIMESTAMP_OUT_OF_RANGE) is left out of the
 * rollups — the verdict depends on the worker's clock when it read it, so the checker takes it
 * from the DLQ, checking only that the event time and the dead-letter time bear it out. Any
 * other dead letter of a valid tick is a difference, and the tick stays expected.
 */
export function reconcile(
  topic: string,
  records: readonly DecodedRecord[],
  deadLetters: readonly DeadLetterEntry[],
  bounds: LatenessBounds,
): Reconciled {
  const letters = new Map<string, DeadLetterEntry[]>();
  for (const letter of deadLetters) {
    const id = recordId(topic, letter.sourcePartition, letter.sourceOffset);
    const same = letters.get(id);
    if (same) same.push(letter);
    else letters.set(id, [letter]);
  }
  const result: Reconciled = {
    ticks: [],
    differences: [],
    tally: {
      records: records.length,
      valid: 0,
      rejected: {},
      dropped: {},
      deadLetters: deadLetters.length,
    },
  };
  for (const record of records) {
    const id = recordId(topic, record.partition, record.offset);
    const found = letters.get(id) ?? [];
    const reasons = [...new Set(found.map((letter) => letter.reason))].sort();
    if ('rejected' in record) {
      bump(result.tally.rejected, record.rejected);
      if (reasons.length === 0)
        result.differences.push({
          store: 'dead-letters',
          kind: 'missing',
          id,
          expected: record.rejected,
        });
      else if (reasons.length > 1 || reasons[0] !== record.rejected)
        result.differences.push({
          store: 'dead-letters',
          kind: 'wrong',
          id,
          path: 'reason',
          expected: record.rejected,
          actual: reasons.join(','),
        });
      continue;
    }
    result.tally.valid += 1;
    const tick = record.tick;
    const timely = found.filter((letter) => !TIME_REASONS.has(letter.reason as DeadLetterReason));
    const dated = found.filter((letter) => TIME_REASONS.has(letter.reason as DeadLetterReason));
    for (const letter of timely)
      result.differences.push({ store: 'dead-letters', kind: 'extra', id, actual: letter.reason });
    const wrongly = dated.filter(
      (letter) => !timeVerdictHolds(letter.reason, tick.ts, letter.at, bounds),
    );
    for (const letter of wrongly)
      result.differences.push({
        store: 'dead-letters',
        kind: 'wrong',
        id,
        path: 'reason',
        expected: `no dead letter: event time ${new Date(tick.ts).toISOString()} is within bounds at ${new Date(letter.at).toISOString()}`,
        actual: letter.reason,
      });
    if (dated.length > 0 && timely.length === 0 && wrongly.length === 0) {
      bump(result.tally.dropped, dated[0]!.reason);
      continue;
    }
    result.ticks.push({
      series: record.series,
      metric: tick.metric,
      tags: tick.tags,
      ts: tick.ts,
      fields: tick.fields,
      strings: tick.strings,
      partition: record.partition,
      offset: record.offset,
    });
  }
  return result;
}
