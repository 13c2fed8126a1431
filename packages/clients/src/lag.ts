import type { Admin } from 'kafkajs';

/**
 * Records of `topic` that `groupId` has not committed yet, per partition and in total. A
 * partition the group never committed counts from its low watermark; an empty one counts 0.
 */
export async function consumerLag(
  admin: Admin,
  groupId: string,
  topic: string,
): Promise<{ total: number; partitions: Map<number, number> }> {
  const [ends, [committed]] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
  ]);
  const done = new Map(committed?.partitions.map((p) => [p.partition, Number(p.offset)]) ?? []);
  const partitions = new Map<number, number>();
  let total = 0;
  for (const end of ends) {
    const from = done.get(end.partition) ?? -1;
    const lag = Number(end.high) - (from >= 0 ? from : Number(end.low));
    partitions.set(end.partition, lag);
    total += lag;
  }
  return { total, partitions };
}
