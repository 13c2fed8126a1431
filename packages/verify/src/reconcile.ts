import type { DeadLetterReason, Tick, TickRejectionReason } from '@tickertape/tick';
import { recordId, type Difference, type TruthTick } from './truth.js';

/** One record of the tick topic as the checker decoded it (with the workers' codec). */
export type DecodedRecord = {
  partition: number;
  offset: number;
  /** The record's Kafka timestamp (the broker's append time on a tick topic), ms. */
  recordTs: number;
} & ({ tick: Tick; series: string } | { rejected: TickRejectionReason });

/** One record of the dead-letter topic, by its headers. */
export interface DeadLetterEntry {
  sourcePartition: number;
  sourceOffset: number;
  reason: string;
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

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * The checker's own time rule, written apart from the workers' `timeVerdict`: the record's
 * timestamp is stored in the log, so the verdict is the same whenever the topic is read.
 */
function timeReason(
  ts: number,
  recordTs: number,
  bounds: LatenessBounds,
): DeadLetterReason | undefined {
  if (ts < 0 || ts - recordTs > bounds.maxFutureMs) return 'TIMESTAMP_OUT_OF_RANGE';
  if (recordTs - ts > bounds.maxLatenessMs) return 'TOO_LATE';
  return undefined;
}

function checkLetters(
  result: Reconciled,
  id: string,
  expected: string,
  reasons: readonly string[],
): void {
  if (reasons.length === 0)
    result.differences.push({ store: 'dead-letters', kind: 'missing', id, expected });
  else if (reasons.length > 1 || reasons[0] !== expected)
    result.differences.push({
      store: 'dead-letters',
      kind: 'wrong',
      id,
      path: 'reason',
      expected,
      actual: reasons.join(','),
    });
}

/**
 * Which records must be in the rollups and which in the dead-letter topic. A record that can
 * never be a tick must be dead-lettered with the reason the checker finds; so must a valid tick
 * whose event time is too far before or after its record's time (TOO_LATE,
 * TIMESTAMP_OUT_OF_RANGE), which is left out of the rollups. Any other dead letter of a valid
 * tick is a difference, and the tick stays expected.
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
      checkLetters(result, id, record.rejected, reasons);
      continue;
    }
    result.tally.valid += 1;
    const tick = record.tick;
    const dated = timeReason(tick.ts, record.recordTs, bounds);
    if (dated !== undefined) {
      bump(result.tally.dropped, dated);
      checkLetters(result, id, dated, reasons);
      continue;
    }
    for (const reason of reasons)
      result.differences.push({ store: 'dead-letters', kind: 'extra', id, actual: reason });
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
