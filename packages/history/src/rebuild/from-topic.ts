import {
  foldInputOf,
  LEVEL_SPECS,
  slotStart,
  type FoldInput,
  type Level,
  type TimeBounds,
} from '@tickertape/buckets';
import { readTopic } from '@tickertape/clients';
import { LevelPolicySource, type RollupStore, type ShadowPartition } from '@tickertape/store';
import { readTickRecord, seriesKey, type TickCodec } from '@tickertape/tick';
import type { TruthTick } from '@tickertape/verify';
import type { Admin, Kafka, KafkaMessage } from 'kafkajs';
import type { RetainedPartition } from './range-checks.js';
import { RebuildError, RebuildErrorCode } from './rebuild-error.js';

export interface TopicPartitionSpan extends RetainedPartition {
  /** The end offset: records up to it are read. */
  high: bigint;
}

/** Per partition of the topic: what it still holds and where the range's records may start. */
export async function topicSpans(
  admin: Admin,
  topic: string,
  fromMs: number,
  maxFutureMs: number,
): Promise<TopicPartitionSpan[]> {
  const ends = await admin.fetchTopicOffsets(topic);
  const found = new Map(
    (await admin.fetchTopicOffsetsByTimestamp(topic, fromMs - maxFutureMs)).map((p) => [
      p.partition,
      BigInt(p.offset),
    ]),
  );
  return ends
    .map(({ partition, low, high }) => ({
      partition,
      low: BigInt(low),
      high: BigInt(high),
      // No record at or after that time: the lookup answers the end (or -1 on some brokers).
      atOrAfter: (found.get(partition) ?? -1n) < 0n ? BigInt(high) : found.get(partition)!,
    }))
    .sort((a, b) => a.partition - b.partition);
}

export interface TopicFold {
  /** Records read from the topic. */
  records: number;
  /** Records whose time puts them out of reach of the range (not decoded). */
  skipped: number;
  /** Records that can never be ticks (the workers dead-letter them). */
  rejected: number;
  /** Valid ticks the workers dead-letter for their time against their record's. */
  dropped: number;
  /** Valid ticks of other slots. */
  outside: number;
  /** The ticks of the range, as the checker sees them. */
  ticks: TruthTick[];
}

export interface TopicFoldOptions {
  kafka: Kafka;
  codec: TickCodec;
  store: RollupStore;
  level: Level;
  topic: string;
  plan: readonly ShadowPartition[];
  fromMs: number;
  toMs: number;
  bounds: TimeBounds;
  timeoutMs: number;
  /** After each batch, with the records read so far. */
  onRecords?: (records: number) => void | Promise<void>;
}

/**
 * Folds the range's ticks from the topic into the shadows with the live write path: the workers'
 * decode, their time verdict on the record's time (a tick they dead-letter is left out) and the
 * RollupWriter with its exactly-once guard, aimed at the shadow of each partition. So a rebuilt
 * level equals what the live workers wrote — and a rerun into the same shadow adds nothing.
 */
export async function foldTopic(options: TopicFoldOptions): Promise<TopicFold> {
  const { level, fromMs, toMs, bounds } = options;
  const shadows = new Map(options.plan.map((part) => [part.live, part.shadow]));
  const writer = options.store.writer(level, {
    target: (live) => {
      const shadow = shadows.get(live);
      if (shadow === undefined)
        throw new RebuildError(RebuildErrorCode.BadSource, `a tick of ${live} is outside the plan`);
      return shadow;
    },
    // The level policy read once: the whole rebuild writes under one policy.
    policy: new LevelPolicySource(options.store, Number.POSITIVE_INFINITY),
  });
  const fold: TopicFold = {
    records: 0,
    skipped: 0,
    rejected: 0,
    dropped: 0,
    outside: 0,
    ticks: [],
  };
  // A tick of the range that the workers accept rides on a record timed in this window.
  const earliest = fromMs - bounds.maxFutureMs;
  const latest = toMs + bounds.maxLatenessMs;

  const take = async (partition: number, message: KafkaMessage): Promise<FoldInput | undefined> => {
    const recordTs = Number(message.timestamp);
    if (recordTs < earliest || recordTs >= latest) {
      fold.skipped += 1;
      return undefined;
    }
    const read = await readTickRecord(options.codec, message, bounds);
    if (!read.ok) {
      // Late or ahead of its record: what the workers dead-letter by time, and the checker drops.
      if (read.byTime) fold.dropped += 1;
      else fold.rejected += 1;
      return undefined;
    }
    const { tick } = read;
    const start = slotStart(level, tick.ts);
    if (start < fromMs || start + LEVEL_SPECS[level].slotMs > toMs) {
      fold.outside += 1;
      return undefined;
    }
    const input = foldInputOf(
      tick,
      seriesKey(tick.metric, tick.tags),
      partition,
      Number(message.offset),
    );
    // The checker's view of the same tick, for its own fold of the range.
    const { seriesKey: series, kafkaPartition, ...rest } = input;
    fold.ticks.push({ ...rest, series, partition: kafkaPartition });
    return input;
  };

  await readTopic(
    options.kafka,
    options.topic,
    async (partition, messages) => {
      const inputs: FoldInput[] = [];
      for (const message of messages) {
        const input = await take(partition, message);
        if (input !== undefined) inputs.push(input);
      }
      // One partition's batch in offset order: the prefix property the guard relies on holds.
      if (inputs.length > 0) await writer.apply(inputs);
      fold.records += messages.length;
      await options.onRecords?.(fold.records);
    },
    { timeoutMs: options.timeoutMs, groupPrefix: 'tickertape-rebuild' },
  );
  return fold;
}
