import { DLQ_HEADERS, type DeadLetterReason } from '@tickertape/tick';
import type { IHeaders, KafkaMessage, Producer } from 'kafkajs';

/** One record for `raw-ticks-dlq`: the original bytes, untouched, with why and where from. */
export interface DeadLetter {
  reason: DeadLetterReason;
  detail: string;
  partition: number;
  message: KafkaMessage;
}

export function deadLetterHeaders(
  sourceTopic: string,
  letter: DeadLetter,
  nowMs: number,
): IHeaders {
  return {
    ...letter.message.headers,
    [DLQ_HEADERS.reason]: letter.reason,
    [DLQ_HEADERS.detail]: letter.detail.slice(0, 1000),
    [DLQ_HEADERS.topic]: sourceTopic,
    [DLQ_HEADERS.partition]: String(letter.partition),
    [DLQ_HEADERS.offset]: letter.message.offset,
    [DLQ_HEADERS.at]: String(nowMs),
  };
}

/**
 * Publishes dead letters and waits for the broker's acknowledgement: the source offsets are
 * committed only after this, so a crash re-sends rather than loses (a replay can duplicate a
 * DLQ record; each carries its source partition/offset to dedupe on redrive).
 */
export async function sendDeadLetters(
  producer: Producer,
  dlqTopic: string,
  sourceTopic: string,
  letters: readonly DeadLetter[],
  nowMs: number,
): Promise<void> {
  if (letters.length === 0) return;
  await producer.send({
    topic: dlqTopic,
    acks: -1,
    messages: letters.map((letter) => ({
      key: letter.message.key,
      value: letter.message.value,
      headers: deadLetterHeaders(sourceTopic, letter, nowMs),
    })),
  });
}
