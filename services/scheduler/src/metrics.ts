import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export function createSchedulerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    jobsRun: new Counter({
      name: 'tickertape_scheduler_jobs_total',
      help: 'Jobs finished, by name and outcome',
      // Not `job`: that is the scrape's own label, so Prometheus would keep this one as
      // `exported_job` (docs/operating.md).
      labelNames: ['job_name', 'outcome'] as const,
      registers,
    }),
    jobSeconds: new Histogram({
      name: 'tickertape_scheduler_job_duration_seconds',
      help: 'Job run time, by name',
      labelNames: ['job_name'] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
      registers,
    }),
    autoSkipped: new Gauge({
      name: 'tickertape_level_auto_skipped_metrics',
      help: 'Metrics the automatic rule skips at a level now (sparse: one tick per series a minute or less; docs/data-layout.md)',
      labelNames: ['level'] as const,
      registers,
    }),
    autoSkipChanges: new Counter({
      name: 'tickertape_level_auto_changes_total',
      help: 'Changes the automatic rule made to the level policy, by level and change (skip: a sparse metric left out from then on; keep: written again)',
      labelNames: ['level', 'change'] as const,
      registers,
    }),
    partitionsCreated: new Counter({
      name: 'tickertape_partitions_created_total',
      help: 'Partition collections created ahead of need',
      registers,
    }),
    shellsInserted: new Counter({
      name: 'tickertape_shells_inserted_total',
      help: 'Shell buckets preallocated, by level',
      labelNames: ['level'] as const,
      registers,
    }),
    finalityHeldBack: new Gauge({
      name: 'tickertape_finality_held_back_seconds',
      help: "How far a level's finality watermark stays behind the clock's, because its consumer group has not read that far",
      labelNames: ['level'] as const,
      registers,
    }),
    // The finality watermark itself, so an alert can see it stop moving (held back by a group
    // that stopped reading, or the finalize job failing).
    finalityWatermark: new Gauge({
      name: 'tickertape_finality_watermark_seconds',
      help: "A level's finality watermark (unix seconds): its slots ending by then are final",
      labelNames: ['level'] as const,
      registers,
    }),
    // Group lag measured from outside the workers, so it stays true when all of a level's
    // workers are down (their own tickertape_consumer_lag disappears with them).
    groupLagRecords: new Gauge({
      name: 'tickertape_group_lag_records',
      help: "Records of the tick topic a level's consumer group has not committed, all partitions",
      labelNames: ['level'] as const,
      registers,
    }),
    groupLagSeconds: new Gauge({
      name: 'tickertape_group_lag_seconds',
      help: "Age of the oldest record a level's consumer group has not consumed (its broker timestamp); 0 when caught up",
      labelNames: ['level'] as const,
      registers,
    }),
    groupMembers: new Gauge({
      name: 'tickertape_group_members',
      help: "Members of a level's consumer group",
      labelNames: ['level'] as const,
      registers,
    }),
    groupLagFailures: new Counter({
      name: 'tickertape_group_lag_failures_total',
      help: "Samples of the groups' lag that failed (Kafka unreachable or slow)",
      registers,
    }),
    partitionsDropped: new Counter({
      name: 'tickertape_partitions_dropped_total',
      help: 'Partition collections dropped by retention',
      registers,
    }),
    segmentDaysDropped: new Counter({
      name: 'tickertape_segment_days_dropped_total',
      help: 'Segment day collections (segments_<YYYYMMDD>) dropped by retention',
      registers,
    }),
    // A gauge, not a counter: a dry run finds the same days every hour, and what operators want
    // to see before turning the dry run off is how many are waiting now.
    segmentDaysExpired: new Gauge({
      name: 'tickertape_segment_days_expired',
      help: 'Segment day collections past retention still present after the last retention run (a dry run keeps them)',
      registers,
    }),
  };
}

export type SchedulerMetrics = ReturnType<typeof createSchedulerMetrics>;
