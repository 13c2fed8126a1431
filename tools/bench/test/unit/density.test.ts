import { describe, expect, it } from '@jest/globals';
import type { FoldInput } from '@tickertape/buckets';
import type { DensityProbeResult } from '../../src/density.js';
import { densityFigures, splitStored, type DensityMeasured } from '../../src/density-figures.js';
import { partitionFor, syntheticFlushes } from '../../src/density-flushes.js';
import { densitySection, densityTarget } from '../../src/density-markdown.js';
import {
  DENSITY_PRESETS,
  densityStart,
  densityTickSpec,
  type DensitySpec,
} from '../../src/density-spec.js';
import type { Stored } from '../../src/storage.js';
import { tickSet, tickSetShape } from '../../src/tick-set.js';

const SPEC: DensitySpec = { perSecond: 1, stocks: 3, traffic: 7, durationMs: 120_000 };
const START = Date.UTC(2026, 10, 21, 10);

describe('density probe: synthetic flushes', () => {
  const ticks = [...tickSet(densityTickSpec(SPEC, 7, START))];
  const flushes = [...syntheticFlushes(ticks, { partitions: 4, flushTicks: 100 })];
  const inputs = flushes.flat();

  it('holds every tick once, in flushes of one partition of at most flushTicks', () => {
    expect(inputs).toHaveLength(tickSetShape(densityTickSpec(SPEC, 7, START)).total);
    expect(inputs).toHaveLength(ticks.length);
    for (const flush of flushes) {
      expect(flush.length).toBeGreaterThan(0);
      expect(flush.length).toBeLessThanOrEqual(100);
      expect(new Set(flush.map((i) => i.kafkaPartition)).size).toBe(1);
    }
  });

  it('keeps each series on one partition, offsets 0, 1, 2… per partition in tick order', () => {
    const partitionOf = new Map<string, number>();
    for (const input of inputs) {
      expect(partitionOf.get(input.seriesKey) ?? input.kafkaPartition).toBe(input.kafkaPartition);
      partitionOf.set(input.seriesKey, input.kafkaPartition);
    }
    const byPartition = new Map<number, FoldInput[]>();
    for (const input of inputs)
      byPartition.set(input.kafkaPartition, [
        ...(byPartition.get(input.kafkaPartition) ?? []),
        input,
      ]);
    for (const list of byPartition.values()) {
      const sorted = [...list].sort((a, b) => a.offset - b.offset);
      expect(sorted.map((i) => i.offset)).toEqual(sorted.map((_, k) => k));
    }
  });

  it('partitions by a stable hash, in range', () => {
    expect(partitionFor('traffic|sensor=1', 4)).toBe(partitionFor('traffic|sensor=1', 4));
    const spread = new Set(
      Array.from({ length: 100 }, (_, i) => partitionFor(`traffic|sensor=${i}`, 4)),
    );
    expect([...spread].sort()).toEqual([0, 1, 2, 3]);
  });
});

describe('density probe: presets and start', () => {
  it('keeps each full density to a few tens of thousands of ticks', () => {
    for (const spec of DENSITY_PRESETS.full) {
      const total = tickSetShape(densityTickSpec(spec, 7, START)).total;
      expect(total).toBeGreaterThan(1000);
      expect(total).toBeLessThanOrEqual(72_000);
    }
    expect(DENSITY_PRESETS.full.map((s) => s.perSecond)).toEqual([0.02, 0.25, 1, 10, 1 / 60]);
    // The sparse density under the defaults: the stack skips its minute level on its own.
    expect(DENSITY_PRESETS.full.filter((s) => s.defaults).map((s) => s.perSecond)).toEqual([
      1 / 60,
    ]);
  });

  it('starts on a whole hour, every span inside it and in the past', () => {
    const now = Date.UTC(2026, 10, 21, 10, 4, 30);
    const start = densityStart(now, DENSITY_PRESETS.full);
    expect(start % 3_600_000).toBe(0);
    expect(start + 10 * 60_000).toBeLessThanOrEqual(now);
    expect(start).toBe(Date.UTC(2026, 10, 21, 9));
  });
});

function stored(collections: [string, number, number, number][]): Stored {
  const byCollection = collections.map(([name, documents, dataBytes, indexBytes]) => ({
    name,
    kind: name.startsWith('rollup_')
      ? ('buckets' as const)
      : name === 'level_policy'
        ? ('store' as const)
        : ('other' as const),
    documents,
    dataBytes,
    indexBytes,
  }));
  return {
    collections: byCollection.map((c) => c.name),
    byCollection,
    documents: byCollection.reduce((s, c) => s + c.documents, 0),
    dataBytes: byCollection.reduce((s, c) => s + c.dataBytes, 0),
    indexBytes: byCollection.reduce((s, c) => s + c.indexBytes, 0),
    indexSampled: 0,
  };
}

describe('density probe: figures', () => {
  it('splits a database into minute and hour partitions and the per-tick collection', () => {
    const parts = splitStored(
      stored([
        ['rollup_hour_202611', 10, 3000, 100],
        ['rollup_minute_20261121', 100, 20_000, 1000],
        ['rollup_minute_20261122', 50, 10_000, 500],
        ['ticks', 6000, 900_000, 500_000],
      ]),
    );
    expect(parts.minute).toEqual({ documents: 150, dataBytes: 30_000, indexBytes: 1500 });
    expect(parts.hour).toEqual({ documents: 10, dataBytes: 3000, indexBytes: 100 });
    expect(parts.perTick).toEqual({ documents: 6000, dataBytes: 900_000, indexBytes: 500_000 });
    expect(() => splitStored(stored([['other', 1, 1, 1]]))).toThrow(/unexpected collection other/);
    // The store's own documents (the level policy) are configuration, not what a tick costs.
    expect(splitStored(stored([['level_policy', 2, 200, 20]])).minute.documents).toBe(0);
  });

  it('divides by the ticks and takes C/B from the measured bytes', () => {
    const measured: DensityMeasured = {
      perSecond: 1,
      series: 10,
      ticks: 1000,
      durationMs: 100_000,
      flushes: 4,
      levels: {
        minute: {
          documents: 20,
          dataBytes: 40_000,
          indexBytes: 2000,
          buckets: 40,
          operations: 40,
          bulkWrites: 4,
        },
        hour: {
          documents: 10,
          dataBytes: 7000,
          indexBytes: 1000,
          buckets: 40,
          operations: 40,
          bulkWrites: 4,
        },
      },
      perTick: { documents: 1000, dataBytes: 150_000, indexBytes: 100_000 },
    };
    const result = densityFigures(measured);
    expect(result.bytesPerTick.minute).toEqual({ data: 40, index: 2, total: 42 });
    expect(result.bytesPerTick.hour).toEqual({ data: 7, index: 1, total: 8 });
    expect(result.bytesPerTick.rollups).toEqual({ data: 47, index: 3, total: 50 });
    expect(result.bytesPerTick.perTick).toEqual({ data: 150, index: 100, total: 250 });
    expect(result.cOverB).toBe(5);
  });
});

function probeResult(cOverB: (perSecond: number) => number): DensityProbeResult {
  const densities = [0.25, 1, 10].map((perSecond) =>
    densityFigures({
      perSecond,
      series: 120,
      ticks: 1000,
      durationMs: 600_000,
      flushes: 1,
      levels: {
        minute: {
          documents: 1,
          dataBytes: 40_000,
          indexBytes: 0,
          buckets: 1,
          operations: 1,
          bulkWrites: 1,
        },
        hour: {
          documents: 1,
          dataBytes: 0,
          indexBytes: 0,
          buckets: 1,
          operations: 1,
          bulkWrites: 1,
        },
      },
      perTick: { documents: 1000, dataBytes: 40_000 * cOverB(perSecond), indexBytes: 0 },
    }),
  );
  return { seed: 7, startMs: START, plan: { partitions: 4, flushTicks: 3000 }, densities };
}

describe('density probe: Markdown', () => {
  it('meets the goal only when every density from 1 tick/s has C/B ≥ 5, 0.25 reported beside', () => {
    const met = densityTarget(probeResult((r) => (r < 1 ? 2 : 6)))!;
    expect(met.met).toBe(true);
    expect(met.measured).toBe('C/B = 6.0 at 1 ticks/s, 6.0 at 10 ticks/s (2.0 at 0.25 ticks/s)');
    expect(densityTarget(probeResult((r) => (r < 10 ? 6 : 4)))!.met).toBe(false);
  });

  it('renders one row per density', () => {
    const lines = densitySection(probeResult(() => 3));
    const rows = lines.filter((line) => /^\| \d/.test(line));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('| 0.25 ticks/s | full | 120 | 10 min | 1,000 |');
    expect(rows[0]).toMatch(/\| 3\.00 \|$/);
  });
});
