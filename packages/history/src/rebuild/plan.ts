import type { Level } from '@tickertape/buckets';
import type { RollupStore, ShadowPartition } from '@tickertape/store';
import type { TickCodec } from '@tickertape/tick';
import type { Kafka } from 'kafkajs';
import { isoTime, plural } from '../words.js';
import { sourceSpans } from './from-level.js';
import { topicSpans, type TopicPartitionSpan } from './from-topic.js';
import { checkTopicHolds, type RebuildSource } from './range-checks.js';
import { RebuildError, RebuildErrorCode } from './rebuild-error.js';

/** What a rebuild is asked to do, and the plan it makes of it before writing anything. */
export interface RebuildOptions {
  level: Level;
  fromMs: number;
  toMs: number;
  source: RebuildSource;
  topic: string;
  maxLatenessMs: number;
  maxFutureMs: number;
  timeoutMs: number;
  dryRun: boolean;
}

export interface PlannedPartition {
  live: string;
  fromMs: number;
  toMs: number;
  whole: boolean;
  /** Buckets of the range in the live partition now (shells included). */
  liveBuckets: number;
  /** Buckets of the range in the source level (undefined for the topic). */
  sourceBuckets?: number;
}

export interface RebuildPlan {
  level: Level;
  source: RebuildSource;
  topic?: string;
  fromMs: number;
  toMs: number;
  partitions: PlannedPartition[];
  /** For the topic: each partition's offsets to read. */
  topicPartitions?: { partition: number; low: string; high: string }[];
}

export function sourceLabel(options: RebuildOptions): string {
  return options.source === 'topic' ? `topic:${options.topic}` : options.source;
}

export async function planPartitions(
  store: RollupStore,
  options: RebuildOptions,
  plan: readonly ShadowPartition[],
): Promise<PlannedPartition[]> {
  const present = new Set(await store.listNames());
  if (options.source !== 'topic') {
    const source = options.source;
    // A metric the source level skips (now, or over an automatic span) has nothing there to roll
    // up for those slots: the swap would wipe it.
    const policy = await store.readLevelPolicy();
    const lost = [
      ...new Set([
        ...policy.metricsAt(source, 'skip'),
        ...policy.autoSkips().map(({ metric }) => metric),
      ]),
    ].filter((metric) => policy.skipsSome(source, metric) && !policy.skips(options.level, metric));
    if (lost.length > 0)
      throw new RebuildError(
        RebuildErrorCode.BadSource,
        `the ${options.source} level skips ${lost.join(', ')} (level policy) while ${options.level} keeps ${lost.length === 1 ? 'it' : 'them'}: rolling ${options.source} up would drop ${lost.length === 1 ? 'that metric' : 'those metrics'}; use --source topic`,
      );
    // A compact source keeps no sketch (one sum per minute): the target's sketches would be lost.
    const unsketched = policy
      .metricsAt(options.source, 'compact')
      .filter((metric) => policy.sketches(metric));
    if (unsketched.length > 0)
      throw new RebuildError(
        RebuildErrorCode.BadSource,
        `the ${options.source} level keeps ${unsketched.join(', ')} compact, without the sketches (level policy) ${options.level} keeps: use --source topic`,
      );
    // A roll-up writes the full layout: a metric the target keeps compact is rebuilt from the topic.
    const compact = policy.metricsAt(options.level, 'compact');
    if (compact.length > 0)
      throw new RebuildError(
        RebuildErrorCode.BadSource,
        `the ${options.level} level keeps ${compact.join(', ')} compact (level policy), which a roll-up of ${options.source} does not write: use --source topic`,
      );
  }
  const planned: PlannedPartition[] = [];
  for (const part of plan) {
    const entry: PlannedPartition = {
      live: part.live,
      fromMs: part.fromMs,
      toMs: part.toMs,
      whole: part.whole,
      liveBuckets: await store.partition(part.live).count(part),
    };
    if (options.source !== 'topic') {
      let count = 0;
      for (const span of sourceSpans(options.source, part)) {
        if (present.has(span.collection)) {
          count += await store.partition(span.collection).count(span);
          continue;
        }
        // A source partition that never was (no tick those days) is nothing to roll up; one
        // retention dropped while this level holds data there would wipe that data.
        const held = await store.partition(part.live).count({ ...span, withTicks: true });
        if (held > 0)
          throw new RebuildError(
            RebuildErrorCode.BadSource,
            `the ${options.source} partition ${span.collection} does not exist (dropped by retention?) while ${part.live} holds ${plural(held, 'bucket')} of ${isoTime(span.fromMs)} to ${isoTime(span.toMs)}: use --source topic`,
          );
      }
      entry.sourceBuckets = count;
    }
    planned.push(entry);
  }
  return planned;
}

export interface Sources {
  kafka?: Kafka;
  codec?: TickCodec;
  spans?: TopicPartitionSpan[];
}

/** The topic as a rebuild's source: each partition's offsets to read, checked to hold the range. */
export async function topicSources(
  kafka: Kafka,
  codec: TickCodec,
  options: RebuildOptions,
): Promise<Sources> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const spans = await topicSpans(admin, options.topic, options.fromMs, options.maxFutureMs);
    checkTopicHolds(options.topic, options.fromMs, options.maxFutureMs, spans);
    return { kafka, codec, spans };
  } finally {
    await admin.disconnect();
  }
}
