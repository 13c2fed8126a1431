import type { Admin } from 'kafkajs';

/** Where a level's consumer group stands on the tick topic: the next offset per partition. */
export type GroupPosition = ReadonlyMap<number, bigint>;

/**
 * The group's committed positions, or `undefined` when it has committed nothing at all: that
 * level has no workers yet, so nothing it could write can be held back (a level enabled later
 * starts its group at the present, docs/history.md). A partition never committed counts as
 * unread from its first retained record.
 */
export async function groupPosition(
  admin: Admin,
  groupId: string,
  topic: string,
): Promise<GroupPosition | undefined> {
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const partitions = committed?.partitions ?? [];
  if (partitions.every((p) => Number(p.offset) < 0)) return undefined;
  const low = new Map(
    (await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, BigInt(p.low)]),
  );
  return new Map(
    partitions.map((p) => {
      const offset = BigInt(p.offset);
      return [p.partition, offset < 0n ? (low.get(p.partition) ?? 0n) : offset];
    }),
  );
}

/**
 * Whether the group has read every record of the topic timestamped before `t`. Kafka answers
 * with the first offset whose timestamp is at or after `t` (the end when there is none); on a
 * topic with broker append times, timestamps never decrease within a partition, so every
 * record before that offset is older than `t`.
 */
export async function consumedBefore(
  admin: Admin,
  topic: string,
  position: GroupPosition,
  t: number,
): Promise<boolean> {
  const firstAtOrAfter = await admin.fetchTopicOffsetsByTimestamp(topic, t);
  return firstAtOrAfter.every(
    ({ partition, offset }) => (position.get(partition) ?? 0n) >= BigInt(offset),
  );
}
