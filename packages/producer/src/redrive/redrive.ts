import { readTopic, type StartProgress } from '@tickertape/clients';
import type { Logger } from '@tickertape/logger';
import { Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';
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
  /** Shows the DLQ read's progress, in records (none when absent). */
  startProgress?: StartProgress;
}

export interface RedriveReport extends RedriveTally {
  dlqTopic: string;
  dryRun: boolean;
  /** Where the read began and ended, per DLQ partition (end: the offsets when it started). */
  partitions: { partition: number; start: string; end: string }[];
}

export const DEFAULT_REDRIVE_TIMEOUT_MS = 60_000;

/**
 * Republishes dead letters to their source topic: the original key and value bytes, untouched,
 * with the original headers. Reads the DLQ up to the end offsets it had when the redrive began
 * — records dead-lettered meanwhile (a redriven record failing again, say) wait for the next
 * run — so it always ends. Sends are idempotent and acknowledged before the next batch is read.
 */
export async function redrive(kafka: Kafka, options: RedriveOptions): Promise<RedriveReport> {
  const { dlqTopic, dryRun = false } = options;
  const log = options.logger?.child({ component: 'redrive', dlqTopic });
  const admin = kafka.admin();
  await admin.connect();
  let topics: string[];
  try {
    await topicPartitions(admin, dlqTopic);
    topics = await admin.listTopics();
  } finally {
    await admin.disconnect();
  }
  const plan = new RedrivePlan({ ...options, existingTopics: new Set(topics) });
  // The same settings as the TickProducer: a redriven record keeps its key, so the default
  // partitioner puts it back in its series' partition.
  const producer: Producer | undefined = dryRun
    ? undefined
    : kafka.producer({
        createPartitioner: Partitioners.DefaultPartitioner,
        allowAutoTopicCreation: false,
        idempotent: true,
        maxInFlightRequests: 1,
      });
  await producer?.connect();
  let acknowledged = 0;
  try {
    const ranges = await readTopic(
      kafka,
      dlqTopic,
      async (partition, messages) => {
        const outgoing = new Map<string, Message[]>();
        for (const message of messages) {
          const decision = plan.decide({
            reason: headerText(message.headers, DLQ_HEADERS.reason),
            sourceTopic: headerText(message.headers, DLQ_HEADERS.topic),
            sourcePartition: headerText(message.headers, DLQ_HEADERS.partition),
            sourceOffset: headerText(message.headers, DLQ_HEADERS.offset),
          });
          if (!decision.redrive) continue;
          const batch = outgoing.get(decision.topic) ?? [];
          batch.push({
            key: message.key,
            value: message.value,
            headers: {
              ...originalHeaders(message.headers),
              [REDRIVEN_FROM_HEADER]: `${dlqTopic}/${partition}/${message.offset}`,
            },
          });
          outgoing.set(decision.topic, batch);
        }
        if (producer === undefined || outgoing.size === 0) return;
        await producer.sendBatch({
          acks: -1,
          topicMessages: [...outgoing].map(([topic, batch]) => ({ topic, messages: batch })),
        });
        for (const batch of outgoing.values()) acknowledged += batch.length;
      },
      {
        timeoutMs: options.timeoutMs ?? DEFAULT_REDRIVE_TIMEOUT_MS,
        groupPrefix: 'tickertape-redrive',
        ...(options.groupId === undefined ? {} : { groupId: options.groupId }),
        ...(options.fromOffset === undefined ? {} : { fromOffset: options.fromOffset }),
        ...(options.startProgress === undefined
          ? {}
          : {
              progress: {
                start: options.startProgress,
                label: dryRun ? 'redrive (dry run)' : 'redrive',
              },
            }),
      },
    ).catch((err: unknown) => {
      throw new RedriveFailedError(dlqTopic, acknowledged, err);
    });
    const report: RedriveReport = {
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
    };
    log?.info({ total: report.total, skipped: report.skipped, dryRun }, 'redrive finished');
    return report;
  } finally {
    await producer?.disconnect().catch(() => undefined);
  }
}
