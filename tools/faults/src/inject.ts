import { badInputs, type BadInputKind } from '@tickertape/producer';
import { seriesKey, type DeadLetterReason } from '@tickertape/tick';
import type { Producer } from 'kafkajs';

/** One bad record the suite published, and where it landed. */
export interface Injected {
  kind: BadInputKind;
  reason: DeadLetterReason;
  partition: number;
  offset: number;
}

/**
 * Publishes one record of every bad-input kind, keyed like a real traffic sensor so each shares
 * a partition (and a fetch) with good ticks, one send each so its offset is known.
 */
export async function injectBadInputs(
  producer: Producer,
  topic: string,
  schemaId: number,
  nowMs: number,
  round: number,
): Promise<Injected[]> {
  const tags = { sensor: `bad-${round}` };
  const key = seriesKey('traffic', tags);
  const injected: Injected[] = [];
  for (const input of badInputs(schemaId, nowMs, tags)) {
    const [landed] = await producer.send({
      topic,
      acks: -1,
      messages: [{ key, value: input.value }],
    });
    injected.push({
      kind: input.kind,
      reason: input.reason,
      partition: landed!.partition,
      offset: Number(landed!.baseOffset ?? landed!.offset),
    });
  }
  return injected;
}
