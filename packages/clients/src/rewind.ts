import { TickertapeError } from '@tickertape/errors';
import type { Admin } from 'kafkajs';

export class RewindError extends TickertapeError {
  override readonly name = 'RewindError';
  constructor(groupId: string, detail: string) {
    super('GROUP_REWIND_NOT_APPLIED', `rewinding ${groupId}: ${detail}`, { retriable: true });
  }
}

/**
 * Moves a consumer group with no running member back to the first record still in each
 * partition of `topic` — a replay — and checks the broker now holds exactly those offsets.
 * kafkajs' `resetOffsets({ earliest: true })` commits the symbolic offset -2 through a temporary
 * consumer; the fault suite saw a group come back at the latest offset after it, skipping what
 * was published between the stop and the restart. Explicit offsets, read back, leave no doubt.
 */
export async function rewindGroup(admin: Admin, groupId: string, topic: string): Promise<void> {
  const lows = await admin.fetchTopicOffsets(topic);
  await admin.setOffsets({
    groupId,
    topic,
    partitions: lows.map(({ partition, low }) => ({ partition, offset: low })),
  });
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const at = new Map(committed?.partitions.map((p) => [p.partition, p.offset]) ?? []);
  const off = lows.filter(({ partition, low }) => at.get(partition) !== low);
  if (off.length > 0) {
    throw new RewindError(
      groupId,
      `partitions ${off.map((p) => `${p.partition} at ${at.get(p.partition)} instead of ${p.low}`).join(', ')}`,
    );
  }
}
