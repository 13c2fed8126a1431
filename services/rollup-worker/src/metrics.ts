import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Everything an operator watches on a rollup worker, on one registry. */
export function createWorkerMetrics(level: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ level });
  collectDefaultMetrics({ register: registry });
  const metric = <T>(make: (registers: Registry[]) => T) => make([registry]);
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
          help: 'Ticks folded into buckets',
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
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
