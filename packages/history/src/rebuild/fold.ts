import type { CoarseLevel } from '@tickertape/buckets';
import type { RollupStore, ShadowPartition } from '@tickertape/store';
import { expectedBuckets, type Difference } from '@tickertape/verify';
import { NO_PROGRESS, type StartProgress } from '../progress.js';
import { foldLevel } from './from-level.js';
import { foldTopic } from './from-topic.js';
import { type PlannedPartition, type RebuildOptions, type Sources } from './plan.js';

export interface RebuildIo {
  /** Shows the fold's progress (none when absent). */
  startProgress?: StartProgress;
  now: () => number;
}

/** What the fold read from its source. */
export type SourceRead =
  | { kind: 'topic'; records: number; rejected: number; dropped: number; ticks: number }
  | { kind: 'level'; buckets: number; ticks: number }
  | { kind: 'none' };

export interface Folded {
  read: SourceRead;
  /** Buckets written into the shadows. */
  written: number;
  /** Found while folding (a level source is checked batch by batch as it is written). */
  differences: Difference[];
  /** From the topic: the buckets the checker's own fold of the range's ticks makes, by `_id`. */
  want?: Map<string, Record<string, unknown>>;
}

/** Folds the source into fresh shadows and checks them; returns what was read and the differences. */
export async function foldIntoShadows(
  store: RollupStore,
  options: RebuildOptions,
  plan: readonly ShadowPartition[],
  sources: Sources,
  planned: readonly PlannedPartition[],
  io: RebuildIo,
  heartbeat: () => Promise<void>,
): Promise<Folded> {
  const present = new Set(await store.listNames());
  for (const part of plan) {
    // A resumed fold starts over: a rerun of the source is cheap next to a wrong swap.
    if (present.has(part.shadow)) await store.partition(part.shadow).drop();
    await store.prepareShadow(part);
  }
  const total =
    options.source === 'topic'
      ? (sources.spans ?? []).reduce((sum, p) => sum + Number(p.high - p.low), 0)
      : planned.reduce((sum, p) => sum + (p.sourceBuckets ?? 0), 0);
  const progress = (io.startProgress ?? NO_PROGRESS)({
    total,
    unit: options.source === 'topic' ? 'records' : 'buckets',
    label: 'rebuild',
  });
  const advance = async (done: number) => {
    progress.update(done);
    await heartbeat();
  };
  try {
    if (options.source === 'topic') {
      const read = await foldTopic({
        kafka: sources.kafka!,
        codec: sources.codec!,
        store,
        level: options.level,
        topic: options.topic,
        plan,
        fromMs: options.fromMs,
        toMs: options.toMs,
        bounds: { maxLatenessMs: options.maxLatenessMs, maxFutureMs: options.maxFutureMs },
        timeoutMs: options.timeoutMs,
        onRecords: advance,
      });
      // What the writer wrote under the level policy: nothing of a skipped metric, compact hours,
      // sketches and weighted sums where it keeps them.
      const policy = await store.readLevelPolicy();
      const want = expectedBuckets(options.level, read.ticks, policy);
      return {
        read: {
          kind: 'topic',
          records: read.records,
          rejected: read.rejected,
          dropped: read.dropped,
          ticks: read.ticks.length,
        },
        written: want.size,
        differences: [],
        want,
      };
    }
    const read = await foldLevel({
      store,
      level: options.level as CoarseLevel,
      source: options.source,
      plan,
      onBuckets: advance,
    });
    return {
      read: { kind: 'level', buckets: read.sourceBuckets, ticks: read.ticks },
      written: read.written,
      differences: read.differences,
    };
  } finally {
    progress.stop();
  }
}
