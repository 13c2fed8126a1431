import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import {
  createRegistry,
  followTopic,
  headerText,
  readTopic,
  type ReadRange,
} from '@tickertape/clients';
import { registryEndpoint } from '@tickertape/config';
import type { Logger } from '@tickertape/logger';
import { topicPartitions } from '@tickertape/producer';
import { DLQ_HEADERS } from '@tickertape/tick';
import type { Admin, Kafka, KafkaMessage } from 'kafkajs';
import { openKafka } from '../../connect.js';
import { requireStack, type CliEnv } from '../../env.js';
import { PartitionMissingError } from './partition-missing.js';

/** Where each partition's reading starts. */
export type TailStart =
  /** Each partition's last `limit` records: what `tail` shows without a flag. */
  | { kind: 'latest' }
  | { kind: 'beginning' }
  /** The same offset in every partition read (clamped to what the partition holds). */
  | { kind: 'offset'; offset: bigint }
  /** The first record appended at or after this time (epoch ms), per partition. */
  | { kind: 'time'; ms: number };

export interface TailOptions {
  topic: string;
  start: TailStart;
  /** Records shown at most, over every partition read. */
  limit: number;
  /** Read only this partition. */
  partition?: number;
  /** Give up when the records asked for are not read within this long. */
  timeoutMs: number;
}

/** Why and from where a worker dead-lettered a record: its `tickertape-*` headers. */
export interface DeadLetterInfo {
  reason: string;
  detail?: string;
  sourceTopic?: string;
  sourcePartition?: number;
  sourceOffset?: string;
  /** When the worker wrote it, epoch ms. */
  at?: number;
}

export interface TailedRecord {
  partition: number;
  offset: string;
  /** The record's timestamp, epoch ms: the broker's append time on a LogAppendTime topic. */
  timestamp: number;
  key: string | null;
  /** The value as its Avro writer schema reads it, unvalidated (a dead letter may be invalid). */
  value?: unknown;
  /** Why the value could not be read: not in the registry's wire format, unknown schema id… */
  undecodable?: string;
  deadLetter?: DeadLetterInfo;
}

export interface TailReport {
  topic: string;
  records: TailedRecord[];
  /** What was read of each partition. */
  ranges: Map<number, ReadRange>;
}

function clamp(offset: bigint, held: ReadRange): bigint {
  if (offset < held.start) return held.start;
  return offset > held.end ? held.end : offset;
}

/** The range of one partition to read: at most `limit` records from where `start` says. */
function rangeOf(
  start: TailStart,
  held: ReadRange,
  limit: bigint,
  byTime: ReadonlyMap<number, bigint>,
  partition: number,
): ReadRange {
  if (start.kind === 'latest') return { start: clamp(held.end - limit, held), end: held.end };
  const from =
    start.kind === 'beginning'
      ? held.start
      : start.kind === 'offset'
        ? clamp(start.offset, held)
        : clamp(byTime.get(partition) ?? held.end, held);
  return { start: from, end: from + limit < held.end ? from + limit : held.end };
}

async function offsetsAtTime(
  admin: Admin,
  topic: string,
  start: TailStart,
): Promise<Map<number, bigint>> {
  if (start.kind !== 'time') return new Map();
  // kafkajs answers the end offset for a partition with nothing at or after the time.
  const found = await admin.fetchTopicOffsetsByTimestamp(topic, start.ms);
  return new Map(found.map(({ partition, offset }) => [partition, BigInt(offset)]));
}

function deadLetterOf(message: KafkaMessage): DeadLetterInfo | undefined {
  const header = (name: string) => headerText(message.headers, name);
  const reason = header(DLQ_HEADERS.reason);
  if (reason === undefined) return undefined;
  const partition = header(DLQ_HEADERS.partition);
  const at = header(DLQ_HEADERS.at);
  const info: DeadLetterInfo = { reason };
  const detail = header(DLQ_HEADERS.detail);
  const sourceTopic = header(DLQ_HEADERS.topic);
  const sourceOffset = header(DLQ_HEADERS.offset);
  if (detail !== undefined) info.detail = detail;
  if (sourceTopic !== undefined) info.sourceTopic = sourceTopic;
  if (partition !== undefined) info.sourcePartition = Number(partition);
  if (sourceOffset !== undefined) info.sourceOffset = sourceOffset;
  if (at !== undefined) info.at = Number(at);
  return info;
}

async function tailedRecord(
  registry: SchemaRegistry,
  partition: number,
  message: KafkaMessage,
): Promise<TailedRecord> {
  const record: TailedRecord = {
    partition,
    offset: message.offset,
    timestamp: Number(message.timestamp),
    key: message.key === null ? null : message.key.toString('utf8'),
  };
  if (message.value === null) {
    record.undecodable = 'no value';
  } else {
    try {
      // The writer's schema, as the registry holds it by the id in the record: no validation,
      // so a dead letter shows what was sent, however invalid.
      record.value = (await registry.decode(message.value)) as unknown;
    } catch (err) {
      record.undecodable = err instanceof Error ? err.message : String(err);
    }
  }
  const deadLetter = deadLetterOf(message);
  if (deadLetter !== undefined) record.deadLetter = deadLetter;
  return record;
}

function byTimeThenPlace(a: TailedRecord, b: TailedRecord): number {
  return (
    a.timestamp - b.timestamp ||
    a.partition - b.partition ||
    (BigInt(a.offset) < BigInt(b.offset) ? -1 : 1)
  );
}

interface OpenedTail {
  kafka: Kafka;
  registry: SchemaRegistry;
  /** What each partition holds now. */
  held: Map<number, ReadRange>;
  /** For a start by time: the first offset at or after it, per partition. */
  byTime: Map<number, bigint>;
}

/** Checks the dependencies, the topic and the partition asked, and what the topic holds. */
async function openTail(
  env: CliEnv,
  options: { topic: string; start: TailStart; partition?: number },
  logger: Logger,
): Promise<OpenedTail> {
  const kafka = await openKafka(env, logger, 'tickertape-tail', { registry: true });
  const registry = createRegistry(registryEndpoint(requireStack(env, 'SCHEMA_REGISTRY_URL')));
  const admin = kafka.admin();
  await admin.connect();
  try {
    const partitions = await topicPartitions(admin, options.topic);
    if (options.partition !== undefined && options.partition >= partitions)
      throw new PartitionMissingError(options.topic, options.partition, partitions);
    const held = new Map(
      (await admin.fetchTopicOffsets(options.topic)).map(({ partition, low, high }) => [
        partition,
        { start: BigInt(low), end: BigInt(high) },
      ]),
    );
    return {
      kafka,
      registry,
      held,
      byTime: await offsetsAtTime(admin, options.topic, options.start),
    };
  } finally {
    await admin.disconnect();
  }
}

/**
 * Reads records of `topic` and decodes them through the registry, with a dead letter's reason.
 * Read-only: a throwaway consumer group that commits nothing and is deleted afterwards
 * (`readTopic`), so no group the workers or `groups` look at moves. The records shown are the
 * first `limit` from the start asked, or the last `limit` without one, in record-time order.
 */
export async function tail(env: CliEnv, options: TailOptions, logger: Logger): Promise<TailReport> {
  const { kafka, registry, byTime } = await openTail(env, options, logger);
  const limit = BigInt(options.limit);
  const records: TailedRecord[] = [];
  const ranges = await readTopic(
    kafka,
    options.topic,
    async (partition, messages) => {
      for (const message of messages)
        records.push(await tailedRecord(registry, partition, message));
    },
    {
      timeoutMs: options.timeoutMs,
      groupPrefix: 'tickertape-tail',
      ranges: (partition, held) =>
        options.partition === undefined || options.partition === partition
          ? rangeOf(options.start, held, limit, byTime, partition)
          : undefined,
    },
  );
  records.sort(byTimeThenPlace);
  const shown =
    options.start.kind === 'latest'
      ? records.slice(Math.max(0, records.length - options.limit))
      : records.slice(0, options.limit);
  return { topic: options.topic, records: shown, ranges };
}

export interface FollowOptions {
  topic: string;
  /** `latest` follows from each partition's end: new records only. */
  start: TailStart;
  partition?: number;
  /** Stop after this many records; none: until `signal`. */
  limit?: number;
  signal: AbortSignal;
}

/**
 * `tail --follow`: each record handed to `onRecord` as it is read, from the start asked, in offset
 * order within a partition (no sorting: there is no end to sort up to), until `limit` records or
 * `signal`. Reads as `tail` does, committing nothing. Returns how many records were shown.
 */
export async function follow(
  env: CliEnv,
  options: FollowOptions,
  logger: Logger,
  onRecord: (record: TailedRecord) => void,
): Promise<number> {
  const { kafka, registry, held, byTime } = await openTail(env, options, logger);
  const starts = new Map<number, bigint>();
  for (const [partition, range] of held) {
    if (options.partition !== undefined && options.partition !== partition) continue;
    starts.set(
      partition,
      options.start.kind === 'latest'
        ? range.end
        : rangeOf(options.start, range, 0n, byTime, partition).start,
    );
  }
  const enough = new AbortController();
  const signal = AbortSignal.any([options.signal, enough.signal]);
  let shown = 0;
  await followTopic(
    kafka,
    options.topic,
    async (partition, message) => {
      onRecord(await tailedRecord(registry, partition, message));
      shown += 1;
      if (options.limit !== undefined && shown >= options.limit) enough.abort();
    },
    { groupPrefix: 'tickertape-tail', starts, signal },
  );
  return shown;
}
