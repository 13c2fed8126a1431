import { withDeadline } from '@tickertape/errors';
import type { Kafka, KafkaMessage } from 'kafkajs';
import { randomUUID } from 'node:crypto';

export interface ReadTopicOptions {
  /** Give up if the end offsets taken at the start are not reached within this long. */
  timeoutMs: number;
  /** Prefix of the throwaway consumer group (deleted afterwards; nothing is committed). */
  groupPrefix: string;
}

/**
 * Reads every record of `topic` from each partition's beginning up to the end offsets it has
 * when the read starts, handing them over batch by batch (in offset order within a partition).
 * Records appended meanwhile are left for the next read, so it always ends. Returns the end
 * offsets it read up to.
 */
export async function readTopic(
  kafka: Kafka,
  topic: string,
  handle: (partition: number, messages: readonly KafkaMessage[]) => void | Promise<void>,
  options: ReadTopicOptions,
): Promise<Map<number, bigint>> {
  const admin = kafka.admin();
  const groupId = `${options.groupPrefix}-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false });
  await admin.connect();
  try {
    const ends = new Map<number, bigint>();
    const unread = new Set<number>();
    for (const { partition, low, high } of await admin.fetchTopicOffsets(topic)) {
      ends.set(partition, BigInt(high));
      if (BigInt(low) < BigInt(high)) unread.add(partition);
    }
    if (unread.size === 0) return ends;
    let finish: () => void = () => undefined;
    let fail: (err: unknown) => void = () => undefined;
    const finished = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    consumer.on(consumer.events.CRASH, (event) => {
      if (!event.payload.restart) fail(event.payload.error);
    });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const end = ends.get(batch.partition);
        if (end === undefined || !unread.has(batch.partition)) return;
        const messages = batch.messages.filter((message) => BigInt(message.offset) < end);
        try {
          if (messages.length > 0) await handle(batch.partition, messages);
        } catch (err) {
          unread.clear();
          fail(err);
          return;
        }
        if (BigInt(batch.lastOffset()) + 1n >= end) {
          unread.delete(batch.partition);
          if (unread.size === 0) finish();
        }
      },
    });
    await withDeadline(options.timeoutMs, `${topic} to be read to its end offsets`, finished);
    return ends;
  } finally {
    await consumer.disconnect().catch(() => undefined);
    // The group only existed for this read; leaving it would list a dead group forever.
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect();
  }
}
