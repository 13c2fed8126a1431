import type { FoldInput } from '@tickertape/buckets';
import { isTickRejected, seriesKey, type TickCodec } from '@tickertape/tick';
import type { KafkaMessage } from 'kafkajs';
import type { DeadLetter } from './dead-letter.js';
import { timeliness } from './lateness.js';

export interface TimeWindow {
  nowMs: number;
  maxLatenessMs: number;
  maxFutureMs: number;
}

export interface DecodedChunk {
  inputs: FoldInput[];
  letters: DeadLetter[];
}

/**
 * Turns one partition's messages into fold inputs and dead letters. A message that can never be
 * a valid tick becomes a dead letter and the rest of the chunk goes on; anything else (the
 * registry unreachable) is thrown, so the chunk is retried and nothing is dead-lettered by
 * mistake.
 */
export async function decodeChunk(
  codec: TickCodec,
  partition: number,
  messages: readonly KafkaMessage[],
  window: TimeWindow,
): Promise<DecodedChunk> {
  const inputs: FoldInput[] = [];
  const letters: DeadLetter[] = [];
  for (const message of messages) {
    if (message.value === null) {
      letters.push({ reason: 'DECODE_ERROR', detail: 'message has no value', partition, message });
      continue;
    }
    let tick;
    try {
      tick = await codec.decode(message.value);
    } catch (err) {
      if (!isTickRejected(err)) throw err;
      letters.push({ reason: err.reason, detail: err.message, partition, message });
      continue;
    }
    const when = timeliness(tick.ts, window.nowMs, window.maxLatenessMs, window.maxFutureMs);
    if (when !== 'ok') {
      letters.push({
        reason: when === 'too-late' ? 'TOO_LATE' : 'TIMESTAMP_OUT_OF_RANGE',
        detail: `event time ${new Date(tick.ts).toISOString()} is ${when} for now=${new Date(window.nowMs).toISOString()}`,
        partition,
        message,
      });
      continue;
    }
    inputs.push({
      seriesKey: seriesKey(tick.metric, tick.tags),
      metric: tick.metric,
      tags: tick.tags,
      ts: tick.ts,
      fields: tick.fields,
      strings: tick.strings,
      kafkaPartition: partition,
      offset: Number(message.offset),
    });
  }
  return { inputs, letters };
}
