import { withDeadline } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { RedriveFailedError } from '../errors.js';
import { topicPartitions } from '../topics.js';
import { DLQ_HEADERS, headerText, originalHeaders, REDRIVEN_FROM_HEADER } from './dlq-headers.js';
import { RedrivePlan, type RedrivePolicy, type RedriveTally } from './redrive-plan.js';

export interface RedriveOptions extends Omit<RedrivePolicy, 'existingTopics'> {
  dlqTopic: string;
  /** Read and tally, publish nothing. */
  dryRun?: boolean;
  /** Start every DLQ partition at this offset instead of its beginning. */
  fromOffset?: bigint;
  /** Consumer group of the read; by default a new one, deleted afterwards. Nothing is committed. */
  groupId?: string;
  /** Give up if the end offsets taken at start are not reached within this long (default 60 s). */
  timeoutMs?: number;
  logger?: Logger;
}

export interface RedriveReport extends RedriveTally {
  dlqTopic: string;
  dryRun: boolean;
  /** Where the read began and ended, per DLQ partition (end: the offsets when it started). */
  partitions: { partition: number; start: string; end: string }[];
}

export const DEFAULT_REDRIVE_TIMEOUT_MS = 60_000;

interface Range {
  start: bigint;
  end: bigint;
}

/**
 * Republishes dead letters to their source topic: the original key and value bytes, untouched,
 * with the original headers. Reads the DLQ up to the end offsets it had when the redrive began
 * — records dead-lettered meanwhile (a redriven record failing again, say) wait for the next
 * run — so it always ends. Sends are idempotent and acknowledged before the next batch is read.
 */
export async function redrive(kafka: Kafka, options: RedriveOptions): Promise<RedriveReport> {
  const { dlqTopic, dryRun = false } = options;
  const admin = kafka.admin();
  const ownGroup = options.groupId === undefined;
  const groupId = options.groupId ?? `tickertape-redrive-${randomUUID()}`;
  let producer: Producer | undefined;
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false });
  const log = options.logger?.child({ component: 'redrive', dlqTopic, groupId });
  try {
    await admin.connect();
    await topicPartitions(admin, dlqTopic);
    const [offsets, topics] = await Promise.all([
      admin.fetchTopicOffsets(dlqTopic),
      admin.listTopics(),
    ]);
    const plan = new RedrivePlan({ ...options, existingTopics: new Set(topics) });
    const ranges = new Map<number, Range>();
    for (const { partition, low, high } of offsets) {
      const from = options.fromOffset ?? 0n;
      ranges.set(partition, { start: BigInt(low) > from ? BigInt(low) : from, end: BigInt(high) });
    }
    const report = (): RedriveReport => ({
      dlqTopic,
      dryRun,
      partitions: [...ranges]
        .sort(([a], [b]) => a - b)
        .map(([partition, range]) => ({
          partition,
          start: String(range.start),
          end: String(range.end),
        })),
      ...plan.tally(),
    });
    const unread = new Set(
      [...ranges].filter(([, range]) => range.start < range.end).map(([partition]) => partition),
    );
    if (unread.size === 0) return report();

    if (!dryRun) {
      // The same settings as the TickProducer: a redriven record keeps its key, so the default
      // partitioner puts it back in its series' partition.
      producer = kafka.producer({
        createPartitioner: Partitioners.DefaultPartitioner,
        allowAutoTopicCreation: false,
        idempotent: true,
        maxInFlightRequests: 1,
      });
      await producer.connect();
    }
    await consumer.connect();
    await consumer.subscribe({ topic: dlqTopic, fromBeginning: true });

    let finish: () => void = () => undefined;
    let fail: (err: unknown) => void = () => undefined;
    const finished = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    let stopped = false;
    let acknowledged = 0;
    consumer.on(consumer.events.CRASH, (event) => {
      if (!event.payload.restart) fail(event.payload.error);
    });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const range = ranges.get(batch.partition);
        if (stopped || range === undefined || !unread.has(batch.partition)) return;
        try {
          const outgoing = new Map<string, Message[]>();
          for (const message of batch.messages) {
            const offset = BigInt(message.offset);
            if (offset >= range.end) break;
            if (offset < range.start) continue;
            const decision = plan.decide({
              reason: headerText(message.headers, DLQ_HEADERS.reason),
              sourceTopic: headerText(message.headers, DLQ_HEADERS.topic),
              sourcePartition: headerText(message.headers, DLQ_HEADERS.partition),
              sourceOffset: headerText(message.headers, DLQ_HEADERS.offset),
            });
            if (!decision.redrive) continue;
            const messages = outgoing.get(decision.topic) ?? [];
            messages.push({
              key: message.key,
              value: message.value,
              headers: {
                ...originalHeaders(message.headers),
                [REDRIVEN_FROM_HEADER]: `${dlqTopic}/${batch.partition}/${message.offset}`,
              },
            });
            outgoing.set(decision.topic, messages);
          }
          if (producer !== undefined && outgoing.size > 0) {
            await producer.sendBatch({
              acks: -1,
              topicMessages: [...outgoing].map(([topic, messages]) => ({ topic, messages })),
            });
            for (const messages of outgoing.values()) acknowledged += messages.length;
          }
        } catch (err) {
          // Not rethrown: kafkajs would retry the batch, and the plan has already counted it.
          stopped = true;
          fail(err);
          return;
        }
        if (BigInt(batch.lastOffset()) + 1n >= range.end) {
          unread.delete(batch.partition);
          if (unread.size === 0) finish();
        }
      },
    });
    if (options.fromOffset !== undefined) {
      for (const partition of unread) {
        const range = ranges.get(partition)!;
        consumer.seek({ topic: dlqTopic, partition, offset: String(range.start) });
      }
    }
    try {
      await withDeadline(
        options.timeoutMs ?? DEFAULT_REDRIVE_TIMEOUT_MS,
        `${dlqTopic} to be read to its end offsets`,
        finished,
      );
    } catch (err) {
      stopped = true;
      throw new RedriveFailedError(dlqTopic, acknowledged, err);
    }
    const done = report();
    log?.info({ total: done.total, skipped: done.skipped, dryRun }, 'redrive finished');
    return done;
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await producer?.disconnect().catch(() => undefined);
    if (ownGroup) {
      // The group only existed for this read; leaving it would list a dead group forever.
      await admin.deleteGroups([groupId]).catch((err: unknown) => {
        log?.debug({ err }, 'could not delete the redrive consumer group');
      });
    }
    await admin.disconnect();
  }
}
