import { foldInputOf, timeVerdict, type FoldInput, type TimeBounds } from '@tickertape/buckets';
import { isTickRejected, type SeriesKeyCache, type Tick, type TickCodec } from '@tickertape/tick';
import type { KafkaMessage } from 'kafkajs';
import type { DeadLetter } from './dead-letter.js';

export interface DecodedChunk {
  inputs: FoldInput[];
  letters: DeadLetter[];
}

function isoOrRaw(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

/**
 * Turns one partition's messages into fold inputs and dead letters. A message that can never be
 * a valid tick becomes a dead letter and the rest of the chunk goes on; anything else (the
 * registry unreachable) is thrown, so the chunk is retried and nothing is dead-lettered by
 * mistake.
 */
export async function decodeChunk(
  codec: TickCodec,
  keys: SeriesKeyCache,
  partition: number,
  messages: readonly KafkaMessage[],
  bounds: TimeBounds,
): Promise<DecodedChunk> {
  const inputs: FoldInput[] = [];
  const letters: DeadLetter[] = [];
  for (const message of messages) {
    if (message.value === null) {
      letters.push({ reason: 'DECODE_ERROR', detail: 'message has no value', partition, message });
      continue;
    }
    let tick: Tick;
    try {
      // Awaits only for a schema not resolved yet: once per writer schema, not per message.
      tick = codec.decodeResolved(message.value) ?? (await codec.decode(message.value));
    } catch (err) {
      if (!isTickRejected(err)) throw err;
      letters.push({ reason: err.reason, detail: err.message, partition, message });
      continue;
    }
    // The record's own time, not this process's clock: a replay reaches the same verdict.
    const recordTs = Number(message.timestamp);
    const when = timeVerdict(tick.ts, recordTs, bounds);
    if (when !== 'ok') {
      letters.push({
        reason: when === 'too-late' ? 'TOO_LATE' : 'TIMESTAMP_OUT_OF_RANGE',
        detail: `event time ${isoOrRaw(tick.ts)} is ${when === 'too-late' ? 'too late' : 'out of range'} for its record's time ${isoOrRaw(recordTs)}`,
        partition,
        message,
      });
      continue;
    }
    inputs.push(
      foldInputOf(tick, keys.keyOf(tick.metric, tick.tags), partition, Number(message.offset)),
    );
  }
  return { inputs, letters };
}
