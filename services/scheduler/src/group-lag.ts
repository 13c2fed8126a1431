import { groupStatus } from '@tickertape/clients';
import { withDeadline } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import type { Admin } from 'kafkajs';
import type { SchedulerMetrics } from './metrics.js';

export interface GroupLagOptions {
  admin: Admin;
  topic: string;
  /** The consumer group of each store (the rollup levels and the segment store). */
  groups: Readonly<Record<string, string>>;
  everyMs: number;
  metrics: SchedulerMetrics;
  logger: Logger;
}

/**
 * Samples every store's consumer group on a timer and publishes its lag in records and seconds
 * and its member count: the series the lag alerts and the autoscaler read. The scheduler does it,
 * not the workers, because a level whose workers are all down is exactly when its lag matters and
 * its workers export nothing. A group that never committed and has no member is a store not
 * deployed: it gets no lag series (counting the whole topic as its lag would page for nothing),
 * only its member count of 0.
 */
export function sampleGroupLag(options: GroupLagOptions): { stop(): Promise<void> } {
  const { admin, topic, groups, metrics, logger } = options;
  let failing = false;
  let topicMissing = false;
  const sample = async () => {
    try {
      // Before `tickertape topics create` there is no lag to measure, and asking for a missing
      // topic's offsets makes KafkaJS log an error per request.
      if (!(await admin.listTopics()).includes(topic)) {
        if (!topicMissing) logger.info({ topic }, 'no tick topic yet: no consumer group lag');
        topicMissing = true;
        metrics.groupLagRecords.reset();
        metrics.groupLagSeconds.reset();
        return;
      }
      topicMissing = false;
      // Not everyMs: a short period must not fail a sample that is merely slower than it.
      const deadlineMs = Math.max(options.everyMs, 10_000);
      const statuses = await withDeadline(deadlineMs, 'consumer group lag', () =>
        Promise.all(
          Object.entries(groups).map(async ([level, groupId]) => ({
            level,
            status: await groupStatus(admin, groupId, topic),
          })),
        ),
      );
      for (const { level, status } of statuses) {
        metrics.groupMembers.set({ level }, status.members.length);
        const deployed =
          status.members.length > 0 || status.partitions.some((p) => p.committed !== null);
        if (deployed) {
          metrics.groupLagRecords.set({ level }, status.lagRecords);
          metrics.groupLagSeconds.set({ level }, status.lagSeconds);
        } else {
          metrics.groupLagRecords.remove({ level });
          metrics.groupLagSeconds.remove({ level });
        }
      }
      if (failing) logger.info('consumer group lag readable again');
      failing = false;
    } catch (err) {
      metrics.groupLagFailures.inc();
      // Stale figures would read as "fine": drop them, so `absent()` and the failure counter tell.
      metrics.groupLagRecords.reset();
      metrics.groupLagSeconds.reset();
      if (!failing) logger.warn({ err, topic }, 'consumer group lag unknown');
      failing = true;
    }
  };

  let running: Promise<void> | undefined = sample().finally(() => (running = undefined));
  const timer = setInterval(() => {
    // A slow Kafka must not pile samples up: skip a tick while one is still out.
    running ??= sample().finally(() => (running = undefined));
  }, options.everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
