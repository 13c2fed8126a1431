import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { recordTimes, type OffsetsAtTime } from '../../src/record-time.js';

/** ListOffsets over in-memory partitions of non-decreasing timestamps, counting its calls. */
function fakeTopic(partitions: readonly (readonly number[])[]) {
  let calls = 0;
  const offsetsAt: OffsetsAtTime = (t) => {
    calls += 1;
    return Promise.resolve(
      new Map(
        partitions.map((times, partition) => {
          const first = times.findIndex((time) => time >= t);
          return [partition, BigInt(first < 0 ? times.length : first)];
        }),
      ),
    );
  };
  return { offsetsAt, calls: () => calls };
}

describe('recordTimes', () => {
  it.each([
    // [timestamps, offset, now, resolution, expected]
    { times: [1_000, 2_000, 3_000], offset: 0n, now: 10_000, resolution: 1, expected: 1_000 },
    { times: [1_000, 2_000, 3_000], offset: 2n, now: 10_000, resolution: 1, expected: 3_000 },
    { times: [5_000, 5_000, 5_000], offset: 1n, now: 10_000, resolution: 1, expected: 5_000 },
    // a broker clock ahead of ours: age 0, not negative
    { times: [12_000], offset: 0n, now: 10_000, resolution: 100, expected: 10_000 },
    { times: [10_000], offset: 0n, now: 10_000, resolution: 100, expected: 10_000 },
    // older than the doubling steps reach: the search stops at 0
    { times: [3], offset: 0n, now: 1_000_000, resolution: 1, expected: 3 },
  ])(
    'the record at $offset of $times seen at $now is timestamped $expected',
    async ({ times, offset, now, resolution, expected }) => {
      const topic = fakeTopic([times]);
      const answer = await recordTimes(topic.offsetsAt, new Map([[0, offset]]), {
        now,
        resolutionMs: resolution,
      });
      expect(answer.get(0)).toBe(expected);
    },
  );

  it('answers within the resolution below the true timestamp, for every partition', async () => {
    const partition = fc
      .array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 40 })
      .map((times) => times.sort((a, b) => a - b));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(partition, fc.nat()), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 6_000_000 }),
        fc.constantFrom(1, 10, 250, 1_000),
        async (parts, now, resolution) => {
          const topic = fakeTopic(parts.map(([times]) => times));
          const offsets = new Map(
            parts.map(([times, pick], p) => [p, BigInt(pick % times.length)] as const),
          );
          const answer = await recordTimes(topic.offsetsAt, offsets, {
            now,
            resolutionMs: resolution,
          });
          for (const [p, offset] of offsets) {
            const truth = Math.min(now, parts[p]![0][Number(offset)]!);
            const found = answer.get(p)!;
            expect(found).toBeLessThanOrEqual(truth);
            expect(truth - found).toBeLessThanOrEqual(resolution);
          }
        },
      ),
    );
  });

  it('shares probes between partitions and needs few of them', async () => {
    const now = 100_000_000;
    const times = Array.from({ length: 100 }, (_, i) => now - 3_600_000 + i * 1_000);
    const topic = fakeTopic([times, times, times, times]);
    await recordTimes(topic.offsetsAt, new Map([0, 1, 2, 3].map((p) => [p, 10n])), {
      now,
      resolutionMs: 100,
    });
    // an hour back at 100 ms: ~16 doubling steps and ~15 halvings, done once for all four
    expect(topic.calls()).toBeLessThanOrEqual(40);
  });
});
