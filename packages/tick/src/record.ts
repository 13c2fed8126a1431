import { timeVerdict, type TimeBounds } from '@tickertape/buckets';
import type { TickCodec } from './codec.js';
import type { DeadLetterReason } from './dead-letter.js';
import { isTickRejected } from './rejection.js';
import type { Tick } from './tick.js';

/** A Kafka record as the readers of the tick topic see it. */
export interface TickRecord {
  value: Buffer | null;
  /** The record's time, epoch ms as a string (kafkajs). */
  timestamp: string;
}

export type RecordVerdict =
  | { ok: true; tick: Tick }
  /**
   * Never a tick the workers fold: why (a dead letter's reason) and how; `byTime` when the tick
   * itself is valid but its event time is too late or too far ahead of its record's time.
   */
  | { ok: false; reason: DeadLetterReason; detail: string; byTime: boolean };

function isoOrRaw(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

function judged(tick: Tick, record: TickRecord, bounds: TimeBounds): RecordVerdict {
  const recordTs = Number(record.timestamp);
  const when = timeVerdict(tick.ts, recordTs, bounds);
  if (when === 'ok') return { ok: true, tick };
  return {
    ok: false,
    reason: when === 'too-late' ? 'TOO_LATE' : 'TIMESTAMP_OUT_OF_RANGE',
    detail: `event time ${isoOrRaw(tick.ts)} is ${when === 'too-late' ? 'too late' : 'out of range'} for its record's time ${isoOrRaw(recordTs)}`,
    byTime: true,
  };
}

function rejected(err: unknown): RecordVerdict {
  if (!isTickRejected(err)) throw err;
  return { ok: false, reason: err.reason, detail: err.message, byTime: false };
}

const NO_VALUE: RecordVerdict = {
  ok: false,
  reason: 'DECODE_ERROR',
  detail: 'message has no value',
  byTime: false,
};

/**
 * The one reading of a tick record, for the workers and for everything that refolds the topic
 * (rebuild, verify): decoded and validated, then judged on the record's own time, not this
 * process's clock, so a replay reaches the same verdict. A record that can never be a valid tick
 * is a verdict; anything else (the registry unreachable) is thrown, so nothing is rejected by
 * mistake. Synchronous: `undefined` when the record's writer schema is not resolved yet (then
 * `readTickRecord`), so a hot loop awaits once per writer schema, not once per record.
 */
export function readResolvedTickRecord(
  codec: TickCodec,
  record: TickRecord,
  bounds: TimeBounds,
): RecordVerdict | undefined {
  if (record.value === null) return NO_VALUE;
  let tick: Tick | undefined;
  try {
    tick = codec.decodeResolved(record.value);
  } catch (err) {
    return rejected(err);
  }
  return tick === undefined ? undefined : judged(tick, record, bounds);
}

/** `readResolvedTickRecord`, fetching the writer schema when it is not resolved yet. */
export async function readTickRecord(
  codec: TickCodec,
  record: TickRecord,
  bounds: TimeBounds,
): Promise<RecordVerdict> {
  const resolved = readResolvedTickRecord(codec, record, bounds);
  if (resolved !== undefined) return resolved;
  let tick: Tick;
  try {
    // Not null: a record without a value is a verdict above.
    tick = await codec.decode(record.value as Buffer);
  } catch (err) {
    return rejected(err);
  }
  return judged(tick, record, bounds);
}
