import { TickertapeError } from '@tickertape/errors';
import type { Admin } from 'kafkajs';

export class RewindError extends TickertapeError {
  override readonly name = 'RewindError';
  constructor(groupId: string, detail: string) {
    super('GROUP_REWIND_NOT_APPLIED', `rewinding ${groupId}: ${detail}`, { retriable: true });
  }
}

/** Where a group is moved: the first record still held, the end, or the first record appended at or after a time (ms). */
export type GroupStart = 'earliest' | 'latest' | number;

async function targetOffsets(admin: Admin, topic: string, start: GroupStart) {
  const ends = await admin.fetchTopicOffsets(topic);
  if (start === 'earliest') return ends.map(({ partition, low }) => ({ partition, offset: low }));
  if (start === 'latest') return ends.map(({ partition, high }) => ({ partition, offset: high }));
  // Kafka answers the end of a partition with nothing appended since `start`.
  return (await admin.fetchTopicOffsetsByTimestamp(topic, start)).map(({ partition, offset }) => ({
    partition,
    offset,
  }));
}

/**
 * Moves a consumer group with no running member to `start` in every partition of `topic` — back
 * to the first record for a replay, to the end or to a time for a level enabled later
 * (docs/history.md) — and checks the broker now holds exactly those offsets.
 * kafkajs' `resetOffsets({ earliest: true })` commits the symbolic offset -2 through a temporary
 * consumer; the fault suite saw a group come back at the latest offset after it, skipping what
 * was published between the stop and the restart. Explicit offsets, read back, leave no doubt.
 */
export async function positionGroup(
  admin: Admin,
  groupId: string,
  topic: string,
  start: GroupStart,
): Promise<void> {
  const wanted = await targetOffsets(admin, topic, start);
  await admin.setOffsets({ groupId, topic, partitions: wanted });
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const at = new Map(committed?.partitions.map((p) => [p.partition, p.offset]) ?? []);
  const off = wanted.filter(({ partition, offset }) => at.get(partition) !== offset);
  if (off.length > 0) {
    throw new RewindError(
      groupId,
      `partitions ${off.map((p) => `${p.partition} at ${at.get(p.partition)} instead of ${p.offset}`).join(', ')}`,
    );
  }
}

/** Moves a group with no running member back to the first record of each partition: a replay. */
export function rewindGroup(admin: Admin, groupId: string, topic: string): Promise<void> {
  return positionGroup(admin, groupId, topic, 'earliest');
}
