import { foldInputOf, type FoldInput, type TimeBounds } from '@tickertape/buckets';
import {
  readResolvedTickRecord,
  readTickRecord,
  type SeriesKeyCache,
  type TickCodec,
} from '@tickertape/tick';
import type { KafkaMessage } from 'kafkajs';
import type { DeadLetter } from './dead-letter.js';

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
  keys: SeriesKeyCache,
  partition: number,
  messages: readonly KafkaMessage[],
  bounds: TimeBounds,
): Promise<DecodedChunk> {
  const inputs: FoldInput[] = [];
  const letters: DeadLetter[] = [];
  for (const message of messages) {
    // Awaits only for a schema not resolved yet: once per writer schema, not per message.
    const read =
      readResolvedTickRecord(codec, message, bounds) ??
      (await readTickRecord(codec, message, bounds));
    if (!read.ok) {
      letters.push({ reason: read.reason, detail: read.detail, partition, message });
      continue;
    }
    const { tick } = read;
    inputs.push(
      foldInputOf(tick, keys.keyOf(tick.metric, tick.tags), partition, Number(message.offset)),
    );
  }
  return { inputs, letters };
}
