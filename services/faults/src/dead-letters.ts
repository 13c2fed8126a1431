import { readTopic } from '@tickertape/clients';
import { DLQ_HEADERS, headerText } from '@tickertape/producer';
import type { Kafka } from 'kafkajs';

/** Where a record was published, as the DLQ headers name it: `<partition>/<offset>`. */
export function sourceKey(partition: number | string, offset: number | string): string {
  return `${partition}/${offset}`;
}

/** Every dead letter's reasons by its source record (a replayed worker may send one twice). */
export async function readDeadLetters(
  kafka: Kafka,
  dlqTopic: string,
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  await readTopic(
    kafka,
    dlqTopic,
    (_partition, messages) => {
      for (const message of messages) {
        const key = sourceKey(
          headerText(message.headers, DLQ_HEADERS.partition) ?? '?',
          headerText(message.headers, DLQ_HEADERS.offset) ?? '?',
        );
        const reason = headerText(message.headers, DLQ_HEADERS.reason) ?? '';
        const reasons = found.get(key);
        if (reasons) reasons.push(reason);
        else found.set(key, [reason]);
      }
    },
    { timeoutMs: 60_000, groupPrefix: 'tickertape-faults-dlq' },
  );
  return found;
}
