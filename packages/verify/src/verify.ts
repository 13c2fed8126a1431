import { isLevel, type Level, type LevelPolicy } from '@tickertape/buckets';
import type { RollupStore } from '@tickertape/store';
import type { SegmentStore } from '@tickertape/segments';
import {
  headerText,
  NO_PROGRESS,
  readTopic,
  type Progress,
  type StartProgress,
} from '@tickertape/clients';
import type { Logger } from '@tickertape/logger';
import { DLQ_HEADERS, isTickRejected, seriesKey, type Tick } from '@tickertape/tick';
import type { Kafka } from 'kafkajs';
import type { SegmentDocument } from '@tickertape/segments';
import { compareBuckets } from './compare-buckets.js';
import { compareSeriesSegments } from './compare-segments.js';
import {
  reconcile,
  type DeadLetterEntry,
  type DecodedRecord,
  type LatenessBounds,
  type Reconciled,
} from './reconcile.js';
import { expectedBuckets } from './reference-fold.js';
import { expectedPoints, type ExpectedPoint } from './reference-segments.js';
import {
  dayInRange,
  dayStartOf,
  slotInRange,
  storedBuckets,
  storedSegments,
  WHOLE_TIME,
  type CheckedRange,
} from './stored.js';
import type { CheckedStore, Difference, TruthTick } from './truth.js';
import { NotCaughtUpError } from './verify-error.js';

/** A level or the segment store, with the consumer group that writes it. */
export interface CheckedTarget {
  store: Exclude<CheckedStore, 'dead-letters'>;
  groupId: string;
}

export interface VerifyOptions {
  kafka: Kafka;
  stores: { rollups: RollupStore; segments: SegmentStore };
  /** The workers' codec: a rejection (TickRejectedError) means the record belongs in the DLQ. */
  decode: (value: Buffer) => Promise<Tick>;
  topic: string;
  dlqTopic: string;
  targets: readonly CheckedTarget[];
  range?: CheckedRange;
  bounds: LatenessBounds;
  segments: { maxPoints: number; writeOnChange: ReadonlySet<string> };
  /** How long to wait for every group to commit up to the records read (0: check at once). */
  waitMs: number;
  /** How long each topic read may take. */
  readTimeoutMs: number;
  logger?: Logger;
  /** Between polls of the groups' offsets. */
  pollMs?: number;
  /** Shows each stage's progress: the topic read, the groups catching up, the DLQ, the stores. */
  startProgress?: StartProgress;
}

export interface StoreSummary {
  store: CheckedStore;
  expected: number;
  stored: number;
  differences: number;
}

export interface VerifyReport {
  topic: string;
  dlqTopic: string;
  /** End offsets read up to, per partition of the tick topic. */
  ends: { partition: number; end: string }[];
  range: CheckedRange;
  tally: Reconciled['tally'];
  stores: StoreSummary[];
  differences: Difference[];
}

async function readRecords(options: VerifyOptions): Promise<{
  records: DecodedRecord[];
  ends: Map<number, bigint>;
}> {
  const records: DecodedRecord[] = [];
  const ranges = await readTopic(
    options.kafka,
    options.topic,
    async (partition, messages) => {
      for (const message of messages) {
        const offset = Number(message.offset);
        const recordTs = Number(message.timestamp);
        if (message.value === null) {
          records.push({ partition, offset, recordTs, rejected: 'DECODE_ERROR' });
          continue;
        }
        try {
          const tick = await options.decode(message.value);
          const series = seriesKey(tick.metric, tick.tags);
          records.push({ partition, offset, recordTs, tick, series });
        } catch (err) {
          if (!isTickRejected(err)) throw err;
          records.push({ partition, offset, recordTs, rejected: err.reason });
        }
      }
    },
    {
      timeoutMs: options.readTimeoutMs,
      groupPrefix: 'tickertape-verify',
      ...(options.startProgress === undefined
        ? {}
        : { progress: { start: options.startProgress, label: 'verify: tick topic' } }),
    },
  );
  return { records, ends: new Map([...ranges].map(([partition, { end }]) => [partition, end])) };
}

/**
 * The dead letters of records from `sourceTopic` (a DLQ may serve several topics), in DLQ order,
 * a record dead-lettered twice (a replayed worker) listed twice.
 */
export async function readDeadLetters(
  kafka: Kafka,
  dlqTopic: string,
  sourceTopic: string,
  timeoutMs: number,
  startProgress?: StartProgress,
): Promise<DeadLetterEntry[]> {
  const letters: DeadLetterEntry[] = [];
  await readTopic(
    kafka,
    dlqTopic,
    (_partition, messages) => {
      for (const message of messages) {
        const header = (name: string) => headerText(message.headers, name);
        if (header(DLQ_HEADERS.topic) !== sourceTopic) continue;
        letters.push({
          sourcePartition: Number(header(DLQ_HEADERS.partition)),
          sourceOffset: Number(header(DLQ_HEADERS.offset)),
          reason: header(DLQ_HEADERS.reason) ?? '(none)',
        });
      }
    },
    {
      timeoutMs,
      groupPrefix: 'tickertape-verify-dlq',
      ...(startProgress === undefined
        ? {}
        : { progress: { start: startProgress, label: 'verify: dead letters' } }),
    },
  );
  return letters;
}

/** Waits until every target's group has committed at least `ends` in every partition. */
async function awaitGroups(options: VerifyOptions, ends: Map<number, bigint>): Promise<void> {
  const admin = options.kafka.admin();
  await admin.connect();
  // Counted down: the records the groups still had to commit at the first poll.
  let progress: Progress | undefined;
  let first = 0;
  try {
    const deadline = Date.now() + options.waitMs;
    for (;;) {
      const behind: { groupId: string; lag: number }[] = [];
      for (const { groupId } of options.targets) {
        const [committed] = await admin.fetchOffsets({ groupId, topics: [options.topic] });
        const done = new Map(
          committed?.partitions.map((p) => [p.partition, BigInt(p.offset)]) ?? [],
        );
        let lag = 0n;
        for (const [partition, end] of ends) {
          const at = done.get(partition) ?? -1n;
          // A group that never committed an empty partition is not behind on it.
          if (end > 0n && at < end) lag += end - (at < 0n ? 0n : at);
        }
        if (lag > 0n) behind.push({ groupId, lag: Number(lag) });
      }
      const lag = behind.reduce((sum, group) => sum + group.lag, 0);
      if (progress === undefined && lag > 0) {
        first = lag;
        progress = (options.startProgress ?? NO_PROGRESS)({
          total: first,
          unit: 'records',
          label: 'verify: groups catching up',
        });
      }
      progress?.update(Math.max(0, first - lag));
      if (behind.length === 0) return;
      if (Date.now() >= deadline) throw new NotCaughtUpError(behind);
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 500));
    }
  } finally {
    progress?.stop();
    await admin.disconnect();
  }
}

interface Checked {
  summary: { expected: number; stored: number };
  found: Difference[];
}

async function checkLevel(
  options: VerifyOptions,
  level: Level,
  ticks: readonly TruthTick[],
  range: CheckedRange,
  policy: LevelPolicy,
): Promise<Checked> {
  // A metric the level skips is expected nowhere in it (a bucket of it there is extra).
  const kept = policy.isEmpty ? ticks : ticks.filter((tick) => !policy.skips(level, tick.metric));
  const want = new Map(
    [...expectedBuckets(level, kept, policy)].filter(([, bucket]) =>
      slotInRange(level, (bucket.start as Date).getTime(), range),
    ),
  );
  const have = await storedBuckets(options.stores.rollups, level, range);
  return {
    summary: {
      expected: want.size,
      stored: [...have.values()].filter((bucket) => bucket.n !== 0).length,
    },
    found: compareBuckets(level, want, have),
  };
}

async function checkSegments(
  options: VerifyOptions,
  ticks: readonly TruthTick[],
  range: CheckedRange,
): Promise<Checked> {
  const want = expectedPoints(ticks, { writeOnChange: options.segments.writeOnChange });
  const have = await storedSegments(options.stores.segments, range);
  const checked: Checked = { summary: { expected: 0, stored: 0 }, found: [] };
  for (const series of new Set([...want.keys(), ...have.keys()])) {
    const wantChains = want.get(series) ?? new Map<number, ExpectedPoint[]>();
    const haveChains = have.get(series) ?? new Map<number, SegmentDocument[]>();
    for (const partition of new Set([...wantChains.keys(), ...haveChains.keys()])) {
      const points = (wantChains.get(partition) ?? []).filter((point) =>
        dayInRange(dayStartOf(point.t), range),
      );
      const segments = haveChains.get(partition) ?? [];
      checked.summary.expected += points.length;
      checked.summary.stored += segments.reduce((sum, segment) => sum + segment.n, 0);
      const found = compareSeriesSegments(series, points, segments, {
        maxPoints: options.segments.maxPoints,
        partial: range !== WHOLE_TIME,
      });
      for (const difference of found) checked.found.push(difference);
    }
  }
  return checked;
}

/**
 * The ground-truth check: reads the tick topic up to its current end, waits until the workers'
 * groups have committed that far, reads the DLQ, refolds the ticks with the checker's own fold
 * and compares every bucket of every level and every segment in the range with the database.
 */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const range = options.range ?? WHOLE_TIME;
  const log = options.logger?.child({ component: 'verify', topic: options.topic });
  const { records, ends } = await readRecords(options);
  log?.info({ records: records.length }, 'tick topic read');
  await awaitGroups(options, ends);
  const truth = reconcile(
    options.topic,
    records,
    await readDeadLetters(
      options.kafka,
      options.dlqTopic,
      options.topic,
      options.readTimeoutMs,
      options.startProgress,
    ),
    options.bounds,
  );
  const policy = await options.stores.rollups.readLevelPolicy();
  const stores: StoreSummary[] = [];
  const differences = [...truth.differences];
  stores.push({
    store: 'dead-letters',
    expected: [truth.tally.rejected, truth.tally.dropped]
      .flatMap((counts) => Object.values(counts))
      .reduce((a, b) => a + b, 0),
    stored: truth.tally.deadLetters,
    differences: truth.differences.length,
  });
  const comparing = (options.startProgress ?? NO_PROGRESS)({
    total: options.targets.length,
    unit: 'stores',
    label: 'verify: comparing',
  });
  try {
    for (const [done, { store }] of options.targets.entries()) {
      comparing.update(done);
      const checked = isLevel(store)
        ? await checkLevel(options, store, truth.ticks, range, policy)
        : await checkSegments(options, truth.ticks, range);
      stores.push({ store, ...checked.summary, differences: checked.found.length });
      // One by one: a wiped store yields more differences than a spread call takes arguments.
      for (const difference of checked.found) differences.push(difference);
      log?.info({ store, ...checked.summary, differences: checked.found.length }, 'store compared');
    }
    comparing.update(options.targets.length);
  } finally {
    comparing.stop();
  }
  return {
    topic: options.topic,
    dlqTopic: options.dlqTopic,
    ends: [...ends]
      .sort(([a], [b]) => a - b)
      .map(([partition, end]) => ({ partition, end: String(end) })),
    range,
    tally: truth.tally,
    stores,
    differences,
  };
}
