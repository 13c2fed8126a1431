import { readDeadLetters } from '@tickertape/verify';
import type { Kafka } from 'kafkajs';

/** Where a record was published, as the DLQ headers name it: `<partition>/<offset>`. */
export function sourceKey(partition: number, offset: number): string {
  return `${partition}/${offset}`;
}

/** Every dead letter's reasons by its source record (a replayed worker may send one twice). */
export async function deadLettersBySource(
  kafka: Kafka,
  dlqTopic: string,
  sourceTopic: string,
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const letter of await readDeadLetters(kafka, dlqTopic, sourceTopic, 60_000)) {
    const key = sourceKey(letter.sourcePartition, letter.sourceOffset);
    const reasons = found.get(key);
    if (reasons) reasons.push(letter.reason);
    else found.set(key, [letter.reason]);
  }
  return found;
}
