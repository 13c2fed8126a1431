import type { Admin, ITopicConfig } from 'kafkajs';
import { setTimeout as delay } from 'node:timers/promises';
import { TopicLayoutError, TopicMissingError, TopicsNotReadyError } from './errors.js';

export interface TopicLayout {
  /** The raw tick topic, e.g. `raw-ticks`. */
  topic: string;
  partitions: number;
  /** Its dead-letter topic, e.g. `raw-ticks-dlq`. */
  dlqTopic: string;
  /** Default 1: dead letters are few, and redrive reads every partition anyway. */
  dlqPartitions?: number;
  /** Default: the broker's `default.replication.factor`. */
  replicationFactor?: number;
}

export interface TopicState {
  topic: string;
  /** What the topic has now. */
  partitions: number;
  /** What the layout asked for. */
  wanted: number;
  created: boolean;
}

export interface EnsureTopicsResult {
  /** The raw topic, then the DLQ topic. */
  topics: TopicState[];
  created: string[];
  /** Existing topics whose partition count differs from the layout; left as they are. */
  mismatched: TopicState[];
}

function checkLayout(layout: TopicLayout): Required<Omit<TopicLayout, 'replicationFactor'>> {
  const dlqPartitions = layout.dlqPartitions ?? 1;
  for (const [name, count] of [
    ['partitions', layout.partitions],
    ['dlqPartitions', dlqPartitions],
  ] as const) {
    if (!Number.isInteger(count) || count < 1) {
      throw new TopicLayoutError(`${name} must be a positive integer, not ${count}`);
    }
  }
  if (layout.topic === '' || layout.dlqTopic === '') {
    throw new TopicLayoutError('topic names must not be empty');
  }
  if (layout.topic === layout.dlqTopic) {
    throw new TopicLayoutError(`the DLQ topic must differ from the topic (${layout.topic})`);
  }
  return {
    topic: layout.topic,
    partitions: layout.partitions,
    dlqTopic: layout.dlqTopic,
    dlqPartitions,
  };
}

async function partitionCounts(admin: Admin, topics: string[]): Promise<Map<string, number>> {
  if (topics.length === 0) return new Map();
  const described = await metadataShowing(admin, topics, (found) => found.length === topics.length);
  return new Map(described.map((topic) => [topic.name, topic.partitions.length]));
}

/** How long every broker may take to show a new topic (its leaders, its partition counts). */
const METADATA_TIMEOUT_MS = 60_000;

/**
 * Errors of a broker whose metadata has not caught up with a topic the controller just created:
 * in a cluster, a broker may not know it yet (kafkajs' own wait retries only the second).
 */
function isMetadataLag(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { name, type } = err as { name?: unknown; type?: unknown };
  return (
    name === 'KafkaJSProtocolError' &&
    (type === 'UNKNOWN_TOPIC_OR_PARTITION' || type === 'LEADER_NOT_AVAILABLE')
  );
}

type TopicMetadata = Awaited<ReturnType<Admin['fetchTopicMetadata']>>['topics'];

/**
 * The topics' metadata once `ready` says it is complete. kafkajs asks a broker at random, and in a
 * cluster one may not know a topic the controller created a moment ago: its answers are asked
 * again until the deadline (TOPICS_NOT_READY), anything else fails at once.
 */
async function metadataShowing(
  admin: Admin,
  topics: readonly string[],
  ready: (described: TopicMetadata) => boolean,
): Promise<TopicMetadata> {
  const began = Date.now();
  for (;;) {
    let lag: unknown;
    try {
      const { topics: described } = await admin.fetchTopicMetadata({ topics: [...topics] });
      if (ready(described)) return described;
    } catch (err) {
      if (!isMetadataLag(err)) throw err;
      lag = err;
    }
    if (Date.now() - began > METADATA_TIMEOUT_MS)
      throw new TopicsNotReadyError(topics, Date.now() - began, lag);
    await delay(200);
  }
}

/** Resolves once every partition of `topics` has a leader, as the brokers asked say. */
async function leadersElected(admin: Admin, topics: readonly string[]): Promise<void> {
  await metadataShowing(
    admin,
    topics,
    (described) =>
      described.length === topics.length &&
      described.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0)),
  );
}

/**
 * The tick topic's records carry the broker's append time, not the producer's: the workers judge
 * lateness against it (docs/history.md), and a clock the producer cannot set is one the
 * finality watermark can rely on — it never decreases within a partition.
 */
export const TICK_TOPIC_CONFIG = [{ name: 'message.timestamp.type', value: 'LogAppendTime' }];

/**
 * Creates the raw and DLQ topics when missing and reports what exists. An existing topic's
 * partition count is never changed, only reported when it differs: adding partitions moves
 * series to other partitions, which the exactly-once protocol does not cover
 * (docs/exactly-once.md, "Repartitioning the topic"). Safe to run again and from several
 * places at once.
 */
export async function ensureTopics(admin: Admin, layout: TopicLayout): Promise<EnsureTopicsResult> {
  const { topic, partitions, dlqTopic, dlqPartitions } = checkLayout(layout);
  const wanted = new Map([
    [topic, partitions],
    [dlqTopic, dlqPartitions],
  ]);
  // Listing first keeps kafkajs from logging TOPIC_ALREADY_EXISTS for every rerun.
  const existing = new Set(await admin.listTopics());
  const missing = [...wanted.keys()].filter((name) => !existing.has(name));
  const created: string[] = [];
  if (missing.length > 0) {
    const specs: ITopicConfig[] = missing.map((name) => ({
      topic: name,
      numPartitions: wanted.get(name)!,
      replicationFactor: layout.replicationFactor ?? -1,
      configEntries: name === topic ? TICK_TOPIC_CONFIG : [],
    }));
    // false when another process created them between our list and our create: fine, they
    // are then described below like any existing topic.
    const createdAll = await admin.createTopics({ topics: specs, waitForLeaders: false });
    if (createdAll) created.push(...missing);
    await leadersElected(admin, missing);
  }
  const counts = await partitionCounts(admin, [...wanted.keys()]);
  const topics = [...wanted].map(([name, want]) => ({
    topic: name,
    partitions: counts.get(name) ?? want,
    wanted: want,
    created: created.includes(name),
  }));
  return {
    topics,
    created,
    mismatched: topics.filter((state) => state.partitions !== state.wanted),
  };
}

/** The topic's partition count; a TopicMissingError when it does not exist. */
export async function topicPartitions(admin: Admin, topic: string): Promise<number> {
  if (!(await admin.listTopics()).includes(topic)) throw new TopicMissingError(topic);
  const counts = await partitionCounts(admin, [topic]);
  return counts.get(topic) ?? 0;
}
