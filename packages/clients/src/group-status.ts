import { AssignerProtocol, type Admin } from 'kafkajs';
import { recordTimes } from './record-time.js';

/** One member of a consumer group, with the partitions of the topic it holds. */
export interface GroupMember {
  memberId: string;
  clientId: string;
  host: string;
  partitions: number[];
}

/** Where a group stands in one partition of the topic. */
export interface PartitionPosition {
  partition: number;
  /** The next offset the group will read, as committed; null when it never committed here. */
  committed: bigint | null;
  /** The partition's first retained offset and its end (the next offset to be written). */
  start: bigint;
  end: bigint;
  /** Records from the group's position (its commit, or the start) to the end. */
  lagRecords: number;
  /** Broker timestamp of the oldest record not consumed yet (ms); null when none is left. */
  oldestUnconsumedMs: number | null;
  /** Age of that record; 0 when the group has read the whole partition. */
  lagSeconds: number;
  /** The member holding this partition now, if any. */
  memberId: string | null;
}

export interface GroupStatus {
  groupId: string;
  topic: string;
  /** The coordinator's word: Stable, PreparingRebalance, CompletingRebalance, Empty, Dead. */
  state: string;
  members: GroupMember[];
  partitions: PartitionPosition[];
  lagRecords: number;
  /** The largest age over the partitions: how far behind in time the group is. */
  lagSeconds: number;
  /** When the status was taken (ms). */
  at: number;
}

export interface GroupStatusOptions {
  now?: () => number;
  /** Precision of the ages; finer costs more ListOffsets probes (see recordTimes). */
  resolutionMs?: number;
}

/**
 * What `kafka-consumer-groups --describe` shows of one group on one topic — members, their
 * partitions, committed and end offsets — plus its lag in time: the age of the oldest record it
 * has not consumed, read from the record's broker timestamp through ListOffsets (recordTimes),
 * so it needs no consumer and works while every member is down.
 */
export async function groupStatus(
  admin: Admin,
  groupId: string,
  topic: string,
  options: GroupStatusOptions = {},
): Promise<GroupStatus> {
  const now = options.now ?? Date.now;
  const [ends, [committed], described] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
    admin.describeGroups([groupId]),
  ]);
  const at = now();
  const group = described.groups[0];
  const members = (group?.members ?? []).map((member): GroupMember => {
    const assignment =
      member.memberAssignment.length > 0
        ? AssignerProtocol.MemberAssignment.decode(member.memberAssignment)
        : null;
    return {
      memberId: member.memberId,
      clientId: member.clientId,
      host: member.clientHost,
      partitions: [...(assignment?.assignment[topic] ?? [])].sort((a, b) => a - b),
    };
  });
  const owners = new Map(members.flatMap((m) => m.partitions.map((p) => [p, m.memberId])));
  const commits = new Map(committed?.partitions.map((p) => [p.partition, BigInt(p.offset)]) ?? []);

  const positions = ends
    .map((end) => {
      const start = BigInt(end.low);
      const high = BigInt(end.high);
      const commit = commits.get(end.partition) ?? -1n;
      // A commit below the retained start reads on from the start, as the consumer would.
      const next = commit < 0n ? start : commit > start ? commit : start;
      return {
        partition: end.partition,
        committed: commit < 0n ? null : commit,
        start,
        end: high,
        next,
        lagRecords: Number(high > next ? high - next : 0n),
      };
    })
    .sort((a, b) => a.partition - b.partition);

  const behind = new Map(
    positions.filter((p) => p.lagRecords > 0).map((p) => [p.partition, p.next]),
  );
  const times =
    behind.size === 0
      ? new Map<number, number>()
      : await recordTimes(
          async (t) =>
            new Map(
              (await admin.fetchTopicOffsetsByTimestamp(topic, t)).map((p) => [
                p.partition,
                BigInt(p.offset),
              ]),
            ),
          behind,
          { now: at, resolutionMs: options.resolutionMs ?? 100 },
        );

  const partitions = positions.map(({ next: _next, ...position }): PartitionPosition => {
    const oldest = times.get(position.partition) ?? null;
    return {
      ...position,
      oldestUnconsumedMs: oldest,
      lagSeconds: oldest === null ? 0 : (at - oldest) / 1000,
      memberId: owners.get(position.partition) ?? null,
    };
  });
  return {
    groupId,
    topic,
    state: group?.state ?? 'Unknown',
    members,
    partitions,
    lagRecords: partitions.reduce((sum, p) => sum + p.lagRecords, 0),
    lagSeconds: partitions.reduce((max, p) => Math.max(max, p.lagSeconds), 0),
    at,
  };
}

/**
 * Consumer groups other than `known` that hold committed offsets on `topic`: a retired level's
 * group, a tool's leftover. They pin nothing in Kafka, but a forgotten group confuses whoever
 * reads the group list, and a level enabled again later would resume from its old commits.
 */
export async function otherGroupsOnTopic(
  admin: Admin,
  topic: string,
  known: ReadonlySet<string>,
): Promise<string[]> {
  const { groups } = await admin.listGroups();
  const candidates = groups
    // '' is a group that only ever had offsets set (kafka-consumer-groups --reset-offsets).
    .filter(
      (g) => (g.protocolType === 'consumer' || g.protocolType === '') && !known.has(g.groupId),
    )
    .map((g) => g.groupId)
    .sort();
  const holding = await Promise.all(
    candidates.map(async (groupId) => {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      return offsets?.partitions.some((p) => BigInt(p.offset) >= 0n) === true ? groupId : null;
    }),
  );
  return holding.filter((groupId): groupId is string => groupId !== null);
}
