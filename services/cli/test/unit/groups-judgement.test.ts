import { describe, expect, it } from '@jest/globals';
import type { GroupStatus } from '@tickertape/clients';
import { judgeGroup } from '../../src/commands/groups/judgement.js';

/** A group on a topic of `ends.length` partitions; `held[p]` is the member holding p. */
function status(spec: {
  at: number;
  ends: number[];
  committed: number[];
  members?: Record<string, number[]>;
  state?: string;
  lagSeconds?: number;
}): GroupStatus {
  const members = Object.entries(spec.members ?? {}).map(([memberId, partitions]) => ({
    memberId,
    clientId: 'worker',
    host: '/10.0.0.1',
    partitions,
  }));
  const owner = (p: number) => members.find((m) => m.partitions.includes(p))?.memberId ?? null;
  const partitions = spec.ends.map((end, partition) => ({
    partition,
    committed: BigInt(spec.committed[partition]!),
    start: 0n,
    end: BigInt(end),
    lagRecords: end - spec.committed[partition]!,
    oldestUnconsumedMs: null,
    lagSeconds: 0,
    memberId: owner(partition),
  }));
  return {
    groupId: 'g',
    topic: 'raw-ticks',
    state: spec.state ?? (members.length > 0 ? 'Stable' : 'Empty'),
    members,
    partitions,
    lagRecords: partitions.reduce((sum, p) => sum + p.lagRecords, 0),
    lagSeconds: spec.lagSeconds ?? 0,
    at: spec.at,
  };
}

describe('judgeGroup', () => {
  it('fails a group with no member, and one behind by more than the bound', () => {
    const empty = judgeGroup(status({ at: 0, ends: [5], committed: [5] }), null, undefined);
    expect(empty.problems).toEqual(['no member: nothing consumes raw-ticks for this store']);
    const behind = judgeGroup(
      status({ at: 0, ends: [5], committed: [1], members: { a: [0] }, lagSeconds: 30.04 }),
      null,
      10,
    );
    expect(behind.problems).toEqual(['behind by 30.0 s, more than --max-lag-seconds 10']);
    const within = judgeGroup(
      status({ at: 0, ends: [5], committed: [1], members: { a: [0] }, lagSeconds: 9 }),
      null,
      10,
    );
    expect(within.problems).toEqual([]);
  });

  it('names idle members and partitions no member holds', () => {
    const idle = judgeGroup(
      status({ at: 0, ends: [1, 1], committed: [1, 1], members: { a: [0], b: [1], c: [] } }),
      null,
      undefined,
    );
    expect(idle.idleMembers).toEqual(['c']);
    expect(idle.hints[0]).toMatch(/^1 idle member\(s\): 3 members for 2 partitions/);
    const unheld = judgeGroup(
      status({ at: 0, ends: [1, 1], committed: [1, 1], members: { a: [0] } }),
      null,
      undefined,
    );
    expect(unheld.unheldPartitions).toEqual([1]);
    expect(unheld.hints).toEqual(['partition(s) 1 held by no member']);
  });

  it.each<{
    ends: number[];
    committed: number[];
    members: Record<string, number[]>;
    growing: boolean;
    advice: RegExp | null;
  }>([
    // produced 100/s, committed 50/s, lag rose: growing, with room for members
    {
      ends: [1000, 1200],
      committed: [500, 600],
      members: { a: [0, 1] },
      growing: true,
      advice: /add members \(up to 2\)/,
    },
    // every partition has its member: more members would not help
    {
      ends: [1000, 1200],
      committed: [500, 600],
      members: { a: [0], b: [1] },
      growing: true,
      advice: /look at the workers/,
    },
    // keeping up: lag fell
    {
      ends: [1000, 1200],
      committed: [500, 1150],
      members: { a: [0, 1] },
      growing: false,
      advice: null,
    },
  ])(
    'tells growing lag from a steady backlog ($growing)',
    ({ ends, committed, members, growing, advice }) => {
      const first = status({ at: 0, ends, committed, members });
      const second = status({
        at: 2_000,
        ends: ends.map((e) => e + 100),
        committed: committed.map((c, i) => Math.min(c + (growing ? 50 : 200), ends[i]! + 100)),
        members,
      });
      const judgement = judgeGroup(first, second, undefined);
      expect(judgement.lagGrowing).toBe(growing);
      expect(judgement.rates!.producedPerSec).toBe(100);
      const hint = judgement.hints.find((h) => h.startsWith('lag growing'));
      if (advice === null) expect(hint).toBeUndefined();
      else expect(hint).toMatch(advice);
    },
  );

  it('measures no rate from one sample', () => {
    const one = judgeGroup(
      status({ at: 0, ends: [5], committed: [1], members: { a: [0] } }),
      null,
      undefined,
    );
    expect(one.rates).toBeNull();
    expect(one.lagGrowing).toBeNull();
  });
});
