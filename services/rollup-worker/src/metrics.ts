import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Everything an operator watches on a worker, on one registry. Every mode has the same
 * `tickertape_*` series with its `level` label (`segments` for the segment store), so dashboards
 * and `tickertape summary` read all workers alike (the bucket counters stay 0 for segments);
 * the `tickertape_segment_*` counters are registered by segment workers only.
 */
export function createWorkerMetrics(level: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ level });
  collectDefaultMetrics({ register: registry });
  const metric = <T>(make: (registers: Registry[]) => T) => make([registry]);
  const segmentMetric = <T>(make: (registers: Registry[]) => T) =>
    make(level === 'segments' ? [registry] : []);
  return {
    registry,
    ticks: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_ticks_consumed_total',
          help: 'Records consumed, good or bad',
          registers,
        }),
    ),
    applied: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_ticks_applied_total',
          help: 'Good ticks handed to the writer (folded into buckets, or planned into segments)',
          registers,
        }),
    ),
    buckets: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_buckets_written_total',
          help: 'Bucket deltas written (one per bucket per flush)',
          registers,
        }),
    ),
    operations: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_db_operations_total',
          help: 'Update operations sent to the database, conflict retries included',
          registers,
        }),
    ),
    bulkWrites: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_bulk_writes_total',
          help: 'Unordered bulk writes sent',
          registers,
        }),
    ),
    skipped: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_ticks_skipped_total',
          help: 'Ticks of metrics this level skips (the level policy, docs/data-layout.md): committed, not written',
          registers,
        }),
    ),
    conflicts: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_replay_conflicts_total',
          help: 'Buckets that already held part of a flush (redelivery)',
          registers,
        }),
    ),
    flushes: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_flushes_total',
          help: 'Flushes written and committed',
          registers,
        }),
    ),
    flushCauses: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_flushes_by_cause_total',
          help: 'Flushes written, by what started them: budget (the oldest held record waited FRESHNESS_BUDGET_MS), size (FLUSH_MAX_TICKS held), memory (all holds passed HELD_MAX_BYTES), batch (budget 0: every fetched batch), drain (SIGTERM)',
          labelNames: ['cause'] as const,
          registers,
        }),
    ),
    heldRecords: metric(
      (registers) =>
        new Gauge({
          name: 'tickertape_held_records',
          help: 'Records consumed and not yet written (held for the freshness budget), all partitions',
          registers,
        }),
    ),
    heldBytes: metric(
      (registers) =>
        new Gauge({
          name: 'tickertape_held_bytes',
          help: 'Estimated heap of the held records, all partitions (bounded by HELD_MAX_BYTES)',
          registers,
        }),
    ),
    flushFailures: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_flush_failures_total',
          help: 'Flushes that failed before their commit (the partition is fetched again from its last commit)',
          registers,
        }),
    ),
    // Crashes and joins tell an operator whether the consumer is stable: a restart loop or a
    // group rebalancing over and over shows here before the lag does.
    consumerCrashes: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_consumer_crashes_total',
          help: 'Consumer crashes, by whether KafkaJS restarts the consumer by itself',
          labelNames: ['restart'] as const,
          registers,
        }),
    ),
    groupJoins: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_group_joins_total',
          help: 'Times this worker joined its consumer group (the first join and every rebalance)',
          registers,
        }),
    ),
    deadLetters: metric(
      (registers) =>
        new Counter({
          name: 'tickertape_dead_letters_total',
          help: 'Records rejected, by reason',
          labelNames: ['reason'] as const,
          registers,
        }),
    ),
    flushSeconds: metric(
      (registers) =>
        new Histogram({
          name: 'tickertape_flush_duration_seconds',
          help: 'Decode, dead-letter and write of one flush (the commit follows)',
          buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
          registers,
        }),
    ),
    lag: metric(
      (registers) =>
        new Gauge({
          name: 'tickertape_consumer_lag',
          help: 'High watermark minus next offset to consume, per partition',
          labelNames: ['partition'] as const,
          registers,
        }),
    ),
    newestEventTime: metric(
      (registers) =>
        new Gauge({
          name: 'tickertape_newest_event_time_seconds',
          help: 'Event time of the newest tick applied',
          registers,
        }),
    ),
    segment: {
      points: segmentMetric(
        (registers) =>
          new Counter({
            name: 'tickertape_segment_points_written_total',
            help: 'Points written into segments',
            registers,
          }),
      ),
      created: segmentMetric(
        (registers) =>
          new Counter({
            name: 'tickertape_segment_created_total',
            help: 'Segment documents created',
            registers,
          }),
      ),
      late: segmentMetric(
        (registers) =>
          new Counter({
            name: 'tickertape_segment_late_total',
            help: 'Ticks not stored because they are older than the newest stored point of their series from the same partition (chronological guard)',
            registers,
          }),
      ),
      unchanged: segmentMetric(
        (registers) =>
          new Counter({
            name: 'tickertape_segment_unchanged_total',
            help: 'Ticks of SEGMENT_WRITE_ON_CHANGE metrics not stored because no value changed',
            registers,
          }),
      ),
      replayed: segmentMetric(
        (registers) =>
          new Counter({
            name: 'tickertape_segment_replayed_total',
            help: 'Ticks already in a segment (redelivery after a crash, a rebalance or a replay)',
            registers,
          }),
      ),
      operations: segmentMetric(
        (registers) =>
          new Counter({
            name: 'tickertape_segment_operations_total',
            help: 'Segment writes sent (appends, closes and inserts)',
            registers,
          }),
      ),
      conflicts: segmentMetric(
        (registers) =>
          new Counter({
            name: 'tickertape_segment_conflicts_total',
            help: 'Flushes refused by the segment guard (another writer or a stale cache), retried uncommitted',
            registers,
          }),
      ),
      split: segmentMetric(
        (registers) =>
          new Counter({
            name: 'tickertape_segment_series_split_total',
            help: 'Series that began arriving on a second Kafka partition (a producer with another partitioner): kept as one chain of segments per partition, docs/segments.md',
            registers,
          }),
      ),
    },
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
