import type { Kafka, KafkaMessage } from 'kafkajs';
import { randomUUID } from 'node:crypto';

export interface FollowTopicOptions {
  /** Prefix of the throwaway consumer group (deleted afterwards; nothing is committed). */
  groupPrefix: string;
  /** Where each partition followed starts; a partition not in the map is not followed. */
  starts: ReadonlyMap<number, bigint>;
  /** Ends the follow: the caller's Ctrl-C, or enough records seen. */
  signal: AbortSignal;
}

/**
 * Hands over every record of the followed partitions from their starts, as it is appended, in
 * offset order within a partition, until `signal` aborts. Like `readTopic`, it reads with a
 * throwaway consumer group that never commits and is deleted afterwards, so no group anyone
 * watches moves. A handler that throws ends the follow with its error.
 */
export async function followTopic(
  kafka: Kafka,
  topic: string,
  handle: (partition: number, message: KafkaMessage) => void | Promise<void>,
  options: FollowTopicOptions,
): Promise<void> {
  const { signal, starts } = options;
  const groupId = `${options.groupPrefix}-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false });
  const admin = kafka.admin();
  let fail: (err: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const stopped = new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await admin.connect();
  try {
    consumer.on(consumer.events.CRASH, (event) => {
      if (!event.payload.restart) fail(event.payload.error);
    });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: false });
    await consumer.run({
      autoCommit: false,
      eachBatch: async (payload) => {
        const { batch } = payload;
        const start = starts.get(batch.partition);
        if (start === undefined) return;
        for (const message of batch.messages) {
          if (signal.aborted || !payload.isRunning()) return;
          if (BigInt(message.offset) < start) continue;
          try {
            await handle(batch.partition, message);
          } catch (err) {
            // Not rethrown: kafkajs would retry the batch, and the handler has seen it.
            fail(err);
            return;
          }
        }
      },
    });
    for (const [partition, offset] of starts)
      consumer.seek({ topic, partition, offset: String(offset) });
    await Promise.race([stopped, failed]);
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect();
  }
}
