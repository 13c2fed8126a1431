import type { Logger } from '@tickertape/logger';
import { ensureTopics, type EnsureTopicsResult } from '@tickertape/producer';
import { openKafka } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import { producerClocksProblem } from '../../producer-clocks.js';
import { formatTable } from '../../table.js';

export interface TopicsCreateOptions {
  topic: string;
  partitions: number;
  dlqTopic: string;
  dlqPartitions: number;
  replicationFactor?: number;
}

/** Creates the raw and DLQ topics when missing; existing ones are reported, never changed. */
export async function topicsCreate(
  env: CliEnv,
  options: TopicsCreateOptions,
  logger: Logger,
): Promise<EnsureTopicsResult & { clocksProblem?: string }> {
  const kafka = await openKafka(env, logger, 'tickertape-topics', { registry: false });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const result = await ensureTopics(admin, options);
    // An existing topic is left as it is, its timestamp type too: said, with the fix.
    const clocksProblem = await producerClocksProblem(admin, env, options.topic);
    return { ...result, ...(clocksProblem === undefined ? {} : { clocksProblem }) };
  } finally {
    await admin.disconnect();
  }
}

export function formatTopics(result: EnsureTopicsResult): string {
  return formatTable(
    ['topic', 'partitions', 'status'],
    result.topics.map((state) => [
      state.topic,
      state.partitions,
      state.created
        ? 'created'
        : state.partitions === state.wanted
          ? 'exists'
          : `exists, ${state.wanted} asked: left as is`,
    ]),
  );
}

/** Why a partition count is never changed, once per mismatched topic (stderr). */
export function formatMismatches(result: EnsureTopicsResult): string {
  return result.mismatched
    .map(
      (state) =>
        `tickertape: warning: ${state.topic} has ${state.partitions} partitions, not ${state.wanted}; ` +
        'an existing topic is never repartitioned (series would change partition, see docs/exactly-once.md)\n',
    )
    .join('');
}
