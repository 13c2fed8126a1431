import type { GroupStatus } from '@tickertape/clients';

/** Records per second over the interval between two samples of one group. */
export interface GroupRates {
  /** Records appended to the topic. */
  producedPerSec: number;
  /** Records the group committed. */
  committedPerSec: number;
}

export interface GroupJudgement {
  /** Members holding no partition of the topic. */
  idleMembers: string[];
  /** Partitions no member holds while the group has members. */
  unheldPartitions: number[];
  rates: GroupRates | null;
  /** Lag in records rose between the samples and the group commits slower than the topic grows. */
  lagGrowing: boolean | null;
  /** Why the probe fails: each one makes `tickertape groups` exit 1. */
  problems: string[];
  /** What an operator may want to do, not a failure. */
  hints: string[];
}

const endOf = (status: GroupStatus) => status.partitions.reduce((sum, p) => sum + p.end, 0n);
const positionOf = (status: GroupStatus) =>
  status.partitions.reduce((sum, p) => sum + (p.committed ?? p.start), 0n);

function ratesBetween(first: GroupStatus, second: GroupStatus): GroupRates | null {
  const seconds = (second.at - first.at) / 1000;
  if (seconds <= 0) return null;
  return {
    producedPerSec: Number(endOf(second) - endOf(first)) / seconds,
    committedPerSec: Number(positionOf(second) - positionOf(first)) / seconds,
  };
}

/**
 * What one group's samples say to an operator. `second` is a later sample of the same group
 * (null with --interval 0), which is what tells growing lag from a steady backlog.
 */
export function judgeGroup(
  first: GroupStatus,
  second: GroupStatus | null,
  maxLagSeconds: number | undefined,
): GroupJudgement {
  const latest = second ?? first;
  const partitions = latest.partitions.length;
  const idleMembers = latest.members
    .filter((m) => m.partitions.length === 0)
    .map((m) => m.memberId);
  const unheldPartitions =
    latest.members.length === 0
      ? []
      : latest.partitions.filter((p) => p.memberId === null).map((p) => p.partition);
  const rates = second === null ? null : ratesBetween(first, second);
  const lagGrowing =
    rates === null
      ? null
      : second!.lagRecords > first.lagRecords && rates.committedPerSec < rates.producedPerSec;

  const problems: string[] = [];
  const hints: string[] = [];
  if (latest.members.length === 0) {
    problems.push(`no member: nothing consumes ${latest.topic} for this store`);
  }
  if (maxLagSeconds !== undefined && latest.lagSeconds > maxLagSeconds) {
    problems.push(
      `behind by ${latest.lagSeconds.toFixed(1)} s, more than --max-lag-seconds ${maxLagSeconds}`,
    );
  }
  if (idleMembers.length > 0) {
    hints.push(
      `${idleMembers.length} idle member(s): ${latest.members.length} members for ${partitions} partitions; ` +
        `a level runs at most one member per partition (docs/scaling.md)`,
    );
  }
  if (latest.members.length > 0 && latest.state !== 'Stable') {
    hints.push(`rebalancing (${latest.state}): partitions are being handed over`);
  }
  if (unheldPartitions.length > 0 && latest.state === 'Stable') {
    hints.push(`partition(s) ${unheldPartitions.join(',')} held by no member`);
  }
  if (lagGrowing === true && rates !== null) {
    hints.push(
      `lag growing: ${rates.producedPerSec.toFixed(0)} records/s in, ${rates.committedPerSec.toFixed(0)}/s committed; ` +
        (latest.members.length < partitions
          ? `add members (up to ${partitions})`
          : 'every partition has its member: look at the workers (flush failures, database); more partitions means a new topic, never added ones (docs/scaling.md)'),
    );
  }
  return { idleMembers, unheldPartitions, rates, lagGrowing, problems, hints };
}
