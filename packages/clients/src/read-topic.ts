import { withDeadline } from '@tickertape/errors';
import type { Kafka, KafkaMessage } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { NO_PROGRESS, type Progress, type StartProgress } from './progress.js';

export interface ReadTopicOptions {
  /** Give up if the end offsets taken at the start are not reached within this long. */
  timeoutMs: number;
  /** Prefix of the throwaway consumer group (deleted afterwards; nothing is committed). */
  groupPrefix: string;
  /** Read with this group instead, and leave it in place (nothing is committed either way). */
  groupId?: string;
  /** Start every partition here (or at its first record, if that is later) instead of its beginning. */
  fromOffset?: bigint;
  /** Shows the read's progress in records, under `label` (none when absent). */
  progress?: { start: StartProgress; label: string };
  /**
   * What to read of each partition, given all it holds now (its first offset to its end offset):
   * a narrower range, or undefined to skip the partition. Wins over `fromOffset`.
   */
  ranges?: (partition: number, held: ReadRange) => ReadRange | undefined;
}

/** What a read covered in one partition: offsets `start` (inclusive) to `end` (exclusive). */
export interface ReadRange {
  start: bigint;
  end: bigint;
}

/**
 * Reads every record of `topic` from each partition's beginning (or `fromOffset`) up to the end
 * offsets it has when the read starts, handing them over batch by batch (in offset order within
 * a partition). Records appended meanwhile are left for the next read, so it always ends. A
 * handler that throws stops the read with its error. Returns the range read per partition.
 */
export async function readTopic(
  kafka: Kafka,
  topic: string,
  handle: (partition: number, messages: readonly KafkaMessage[]) => void | Promise<void>,
  options: ReadTopicOptions,
): Promise<Map<number, ReadRange>> {
  const admin = kafka.admin();
  const groupId = options.groupId ?? `${options.groupPrefix}-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false });
  await admin.connect();
  let progress: Progress | undefined;
  try {
    const ranges = new Map<number, ReadRange>();
    for (const { partition, low, high } of await admin.fetchTopicOffsets(topic)) {
      const held = { start: BigInt(low), end: BigInt(high) };
      if (options.ranges !== undefined) {
        const range = options.ranges(partition, held);
        if (range !== undefined) ranges.set(partition, range);
        continue;
      }
      const from = options.fromOffset ?? 0n;
      ranges.set(partition, { start: held.start > from ? held.start : from, end: held.end });
    }
    const unread = new Set(
      [...ranges].filter(([, range]) => range.start < range.end).map(([partition]) => partition),
    );
    let total = 0;
    for (const { start, end } of ranges.values()) if (end > start) total += Number(end - start);
    progress = (options.progress?.start ?? NO_PROGRESS)({
      total,
      unit: 'records',
      label: options.progress?.label ?? topic,
    });
    // Offsets passed, not records handed over: compacted or transaction gaps still count.
    let read = 0;
    const positions = new Map<number, bigint>();
    if (unread.size === 0) return ranges;
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
        const range = ranges.get(batch.partition);
        if (range === undefined || !unread.has(batch.partition)) return;
        const messages = batch.messages.filter((message) => {
          const offset = BigInt(message.offset);
          return offset >= range.start && offset < range.end;
        });
        try {
          if (messages.length > 0) await handle(batch.partition, messages);
        } catch (err) {
          // Not rethrown: kafkajs would retry the batch, and the handler has seen it.
          unread.clear();
          fail(err);
          return;
        }
        const last = BigInt(batch.lastOffset()) + 1n;
        const reached = last < range.end ? last : range.end;
        const was = positions.get(batch.partition) ?? range.start;
        if (reached > was) {
          read += Number(reached - was);
          positions.set(batch.partition, reached);
          progress?.update(read);
        }
        if (last >= range.end) {
          unread.delete(batch.partition);
          if (unread.size === 0) finish();
        }
      },
    });
    if (options.fromOffset !== undefined || options.ranges !== undefined) {
      for (const partition of unread)
        consumer.seek({ topic, partition, offset: String(ranges.get(partition)!.start) });
    }
    await withDeadline(options.timeoutMs, `${topic} to be read to its end offsets`, finished);
    return ranges;
  } finally {
    progress?.stop();
    await consumer.disconnect().catch(() => undefined);
    // A throwaway group only existed for this read; leaving it would list a dead group forever.
    if (options.groupId === undefined) await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect();
  }
}
