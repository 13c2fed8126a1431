import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS, type FoldInput } from '@tickertape/buckets';
import type { RollupStore } from '@tickertape/store';
import { seriesKey } from '@tickertape/tick';
import { QueryErrorCode, RollupReader } from '../../src/index.js';
import type { OpenedStore } from './opened-store.js';

const M = 60_000;
const T0 = Date.parse('2026-11-21T10:00:00Z');
const SPARSE = seriesKey('mms.cpu', { host: 'a' });
const DENSE = seriesKey('traffic', { sensor: '1' });

/** Two hours: the sparse series once a minute (at second 17), the dense one every 5 s. */
function ticks(): FoldInput[] {
  const out: FoldInput[] = [];
  for (let minute = 0; minute < 120; minute++) {
    out.push({
      seriesKey: SPARSE,
      metric: 'mms.cpu',
      tags: { host: 'a' },
      ts: T0 + minute * M + 17_000,
      fields: { value: minute },
      strings: {},
      kafkaPartition: 0,
      offset: minute,
    });
    for (let s = 0; s < 60; s += 5)
      out.push({
        seriesKey: DENSE,
        metric: 'traffic',
        tags: { sensor: '1' },
        ts: T0 + minute * M + s * 1000,
        fields: { value: 1 },
        strings: {},
        kafkaPartition: 1,
        offset: minute * 12 + s / 5,
      });
  }
  return out;
}

/** readers follow the level policy: the same tests on every store. */
export function describeLevelPolicyReads(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name}: readers follow the level policy`, () => {
    let opened: OpenedStore;
    let store: RollupStore;
    let reader: RollupReader;

    beforeAll(async () => {
      opened = await open();
      store = opened.store;
      await store.changeLevelPolicy('minute', ['mms.cpu'], 'skip', T0);
      await store.changeLevelPolicy('hour', ['mms.cpu'], 'compact', T0);
      for (const level of LEVELS) await store.writer(level).apply(ticks());
      reader = new RollupReader({ rollups: store }, { now: () => T0 + 3 * 60 * M });
    });
    afterAll(() => opened.close());

    it('stores no minute bucket of the skipped metric, and compact hours of it', async () => {
      const scan = async (name: string) => {
        const records = [];
        for await (const record of store.partition(name).scan()) records.push(record);
        return records;
      };
      const minutes = await scan('rollup_minute_20261121');
      expect(minutes.filter((doc) => doc.series === SPARSE)).toHaveLength(0);
      expect(minutes.filter((doc) => doc.series === DENSE)).toHaveLength(120);
      type HourDoc = { f: { value: Record<string, unknown> } };
      const hours = (await scan('rollup_hour_202611')) as unknown as (HourDoc & {
        series: string;
      })[];
      const hour = hours.find((doc) => doc.series === SPARSE);
      expect(hour).toMatchObject({
        n: 60,
        f: { value: { n: 60, sum: 1770, min: 0, max: 59, msum: { '0': 0, '1': 1, '59': 59 } } },
        c: { value: { '0': 1, '59': 1 } },
      });
      expect(hour!.f.value.m).toBeUndefined();
      const dense = hours.find((doc) => doc.series === DENSE);
      expect(dense!.f.value.m).toMatchObject({ '0': { n: 12, sum: 12 } });
    });

    it('draws the skipped metric per minute from its hour buckets, where the dense one gets seconds', async () => {
      const range = { field: 'value', fromMs: T0, toMs: T0 + 10 * M, maxPoints: 1000 };
      const sparse = await reader.auto({ ...range, series: SPARSE });
      expect(sparse.resolution).toEqual({ stepMs: M, source: { level: 'hour', detail: 'sub' } });
      expect(sparse.points.map((p) => [p.t, p.n, p.sum, p.min, p.max])).toEqual(
        Array.from({ length: 10 }, (_, i) => [T0 + i * M, 1, i, i, i]),
      );
      expect(sparse.gaps).toEqual([]);
      const dense = await reader.auto({ ...range, series: DENSE });
      expect(dense.resolution.source).toEqual({ level: 'minute', detail: 'sub' });
    });

    it('refuses an explicit minute read of it, naming the levels that keep it', async () => {
      const read = reader.range({
        series: SPARSE,
        field: 'value',
        fromMs: T0,
        toMs: T0 + 10 * M,
        level: 'minute',
        detail: 'slot',
      });
      await expect(read).rejects.toMatchObject({ code: QueryErrorCode.LevelSkipped });
      await expect(read).rejects.toThrow('kept at hour, day');
    });

    it('sums windows over both metrics exactly', async () => {
      const window = await reader.window({
        series: [SPARSE, DENSE],
        field: 'value',
        fromMs: T0 + 55 * M,
        toMs: T0 + 65 * M,
      });
      expect(window.rows.map((r) => [r.series, r.n, r.sum])).toEqual([
        [SPARSE, 10, [55, 56, 57, 58, 59, 60, 61, 62, 63, 64].reduce((a, b) => a + b)],
        [DENSE, 120, 120],
      ]);
      expect(window.pieces.every((piece) => piece.level === 'hour')).toBe(true);
      // One tick a minute: each compact minute's mean is its tick, so min and max are exact.
      expect(window.rows[0]).toMatchObject({ min: 55, max: 64, first: { v: 55 }, last: { v: 64 } });
    });

    it('reports its status at the levels that keep it', async () => {
      const status = await reader.status(SPARSE);
      expect(status.levels.map((l) => l.level)).toEqual(['hour', 'day']);
    });
  });

  describe(`${name}: explicit level reads beside an automatic span`, () => {
    let opened: OpenedStore;
    let reader: RollupReader;
    // The rule skipped the sparse metric at the minute level over [40, 70) minutes after T0.
    const FROM = T0 + 40 * M;
    const UNTIL = T0 + 70 * M;
    const minuteRead = (fromMs: number, toMs: number, tz?: string) =>
      reader.range({
        series: SPARSE,
        field: 'value',
        fromMs,
        toMs,
        level: 'minute',
        detail: 'slot',
        ...(tz === undefined ? {} : { tz }),
      });

    beforeAll(async () => {
      opened = await open();
      const { store } = opened;
      await store.changeAutoSkip({ kind: 'skip', metric: 'mms.cpu', fromMs: FROM }, T0);
      await store.changeAutoSkip({ kind: 'keep', metric: 'mms.cpu', untilMs: UNTIL }, T0);
      for (const level of LEVELS) await store.writer(level).apply(ticks());
      reader = new RollupReader({ rollups: store }, { now: () => T0 + 3 * 60 * M });
    });
    afterAll(() => opened.close());

    it.each([
      ['before the span, up to its first minute', T0 + 10 * M, FROM, undefined],
      ['after it, from its end on', UNTIL, T0 + 100 * M, undefined],
      [
        'before it, in a zone on the UTC grid (a minute each side more)',
        T0,
        FROM - M,
        'Asia/Kolkata',
      ],
    ])(
      'answers a minute read %s from the minute level, every minute',
      async (_, fromMs, toMs, tz) => {
        const read = await minuteRead(fromMs, toMs, tz);
        expect(read.resolution.source).toEqual({ level: 'minute', detail: 'slot' });
        const minutes = (toMs - fromMs) / M;
        expect(read.points.map((p) => [p.t, p.n, p.sum])).toEqual(
          Array.from({ length: minutes }, (_, i) => {
            const minute = (fromMs - T0) / M + i;
            return [fromMs + i * M, 1, minute];
          }),
        );
        expect(read.gaps).toEqual([]);
      },
    );

    it.each([
      ['reaching into its first minute', T0 + 10 * M, FROM + 1, undefined],
      ['starting in its last minute', UNTIL - 1, T0 + 100 * M, undefined],
      ['inside it', FROM + 5 * M, FROM + 10 * M, undefined],
      ['in a zone, within a minute of it', T0, FROM, 'Asia/Kolkata'],
    ])(
      'refuses a minute read %s, naming the levels that keep the metric',
      async (_, fromMs, toMs, tz) => {
        const read = minuteRead(fromMs, toMs, tz);
        await expect(read).rejects.toMatchObject({ code: QueryErrorCode.LevelSkipped });
        await expect(read).rejects.toThrow('kept at hour, day');
      },
    );

    it('still takes the hour level for reads that choose their level near the span', async () => {
      const read = await reader.auto({
        series: SPARSE,
        field: 'value',
        fromMs: T0,
        toMs: FROM,
        maxPoints: 1000,
      });
      expect(read.resolution.source).toEqual({ level: 'hour', detail: 'sub' });
      expect(read.points).toHaveLength(40);
    });
  });
}
