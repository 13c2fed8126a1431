import { hasCode } from '@tickertape/errors';
import {
  SegmentErrorCode,
  type SegmentConflictError,
  type SegmentWriter,
} from '@tickertape/segments';
import type { Logger } from '@tickertape/logger';
import type { RollupWriter } from '@tickertape/store';
import type { WorkerMetrics } from './metrics.js';
import type { FlushSink } from './rollup-consumer.js';

/** The segment guard refused a flush: retriable, and nothing of the flush may be committed. */
export function isSegmentConflict(err: unknown): err is SegmentConflictError {
  return hasCode(err, SegmentErrorCode.Conflict);
}

/** A level's rollup writer, recording what only buckets have. */
export function rollupSink(writer: RollupWriter, metrics: WorkerMetrics): FlushSink {
  return {
    async apply(inputs) {
      const stats = await writer.apply(inputs);
      metrics.buckets.inc(stats.buckets);
      metrics.bulkWrites.inc(stats.bulkWrites);
      metrics.conflicts.inc(stats.conflicts);
      metrics.skipped.inc(stats.skipped);
      return stats;
    },
  };
}

/**
 * The segment writer. Its cache of each chain's newest segment is right only while this process
 * owns the chain's partition, hence `forget` on every (re)join of the group. A series seen on a
 * second partition is stored correctly (a chain per partition) but means a producer does not
 * partition by series key as documented: counted, and said once per series and partition.
 */
export function segmentSink(
  writer: SegmentWriter,
  metrics: WorkerMetrics,
  logger: Logger,
): FlushSink {
  const m = metrics.segment;
  return {
    async apply(inputs) {
      try {
        const stats = await writer.apply(inputs);
        m.points.inc(stats.points);
        m.created.inc(stats.created);
        m.operations.inc(stats.operations);
        m.late.inc(stats.late);
        m.unchanged.inc(stats.unchanged);
        m.replayed.inc(stats.replayed);
        m.split.inc(stats.split.length);
        for (const split of stats.split)
          logger.warn(
            split,
            'series arrives on a second Kafka partition: check the producers partition by series key (docs/producing.md)',
          );
        return stats;
      } catch (err) {
        if (isSegmentConflict(err)) m.conflicts.inc();
        throw err;
      }
    },
    forget: () => writer.forget(),
  };
}
