import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS } from '@tickertape/buckets';
import type { RollupStore } from '@tickertape/store';
import { QueryErrorCode, RollupReader, type Point } from '../../src/index.js';
import {
  expectedOf,
  expectedPoints,
  newYearScenario,
  sensorKey,
  stockKey,
  type Scenario,
} from './ticks.js';
import type { OpenedStore } from './opened-store.js';

const at = (iso: string) => Date.parse(iso);
const M = 60_000;
const H = 60 * M;
const NOW = at('2027-01-01T00:30:00Z');

/** The comparable part of a point: what the reference fold computes. */
const totals = (p: Point) => ({
  t: p.t,
  n: p.n,
  sum: p.sum,
  min: p.min,
  max: p.max,
  open: p.open,
  close: p.close,
});

/** RollupReader on buckets written by the real write path: the same tests on every store. */
export function describeReader(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name}: RollupReader on buckets written by the real write path`, () => {
    let opened: OpenedStore;
    let store: RollupStore;
    let scenario: Scenario;
    let reader: RollupReader;
    const ticksOf = (key: string) => scenario.ticks.filter((t) => t.seriesKey === key);

    beforeAll(async () => {
      opened = await open();
      store = opened.store;
      scenario = newYearScenario();
      for (const level of LEVELS) {
        const writer = store.writer(level);
        // Several flushes, as a worker applies them.
        for (let i = 0; i < scenario.ticks.length; i += 3000)
          await writer.apply(scenario.ticks.slice(i, i + 3000));
      }
      // Shells for the next slots (the scheduler's preallocation): readers must see them as empty.
      const series = [sensorKey(1), stockKey('ACME')].map((key) => {
        const tick = scenario.ticks.find((t) => t.seriesKey === key)!;
        return {
          seriesKey: key,
          metric: tick.metric,
          tags: tick.tags,
          fields: Object.keys(tick.fields),
        };
      });
      await store.insertShells(
        'minute',
        series.map((s) => ({ series: s, start: scenario.toMs, compact: false })),
      );
      await store.insertShells(
        'hour',
        series.map((s) => ({ series: s, start: at('2027-01-01T01:00:00Z'), compact: false })),
      );
      reader = new RollupReader({ rollups: store }, { now: () => NOW });
    }, 120_000);
    afterAll(() => opened.close());

    describe("withSignal: one request's reads", () => {
      const query = {
        series: Array.from({ length: 50 }, (_, i) => sensorKey(i)),
        field: 'speed',
        fromMs: at('2026-12-31T23:55:00Z'),
        toMs: at('2027-01-01T00:05:00Z'),
      };

      it('answers as the reader does while the signal holds', async () => {
        const view = reader.withSignal(new AbortController().signal);
        expect(await view.window(query)).toEqual(await reader.window(query));
        expect(view.levels).toEqual(reader.levels);
      });

      it('reads nothing once the signal has aborted; the reader itself goes on', async () => {
        const controller = new AbortController();
        const view = reader.withSignal(controller.signal);
        controller.abort();
        await expect(view.window(query)).rejects.toMatchObject({
          code: 'STORE_READ_ABORTED',
          retriable: true,
        });
        await expect(
          view.series({ metric: 'traffic', fromMs: query.fromMs, toMs: query.toMs, limit: 5 }),
        ).rejects.toMatchObject({ code: 'STORE_READ_ABORTED' });
        expect((await reader.window(query)).rows).toHaveLength(50);
      });
    });

    describe('window aggregates: the 10-minute average speed of 50 sensors', () => {
      const sensors = Array.from({ length: 50 }, (_, i) => sensorKey(i));

      it.each([
        [
          'across the hour, day, month and year boundary',
          '2026-12-31T23:55:00Z',
          '2027-01-01T00:05:00Z',
          100,
        ],
        ['inside one hour', '2026-12-31T23:41:00Z', '2026-12-31T23:51:00Z', 50],
        [
          'just after midnight, with shells around',
          '2027-01-01T00:10:00Z',
          '2027-01-01T00:20:00Z',
          50,
        ],
      ])('%s: right numbers, at most %i documents examined', async (_name, from, to, bound) => {
        const result = await reader.window({
          series: sensors,
          field: 'speed',
          fromMs: at(from),
          toMs: at(to),
        });
        expect(result.examined).toBeLessThanOrEqual(bound);
        expect(result.examined).toBeGreaterThan(0);
        for (const row of result.rows) {
          const inWindow = ticksOf(row.series).filter((t) => t.ts >= at(from) && t.ts < at(to));
          const expected = expectedOf(inWindow, 'speed');
          if (!expected) {
            // A silent sensor is a gap: no average, never a zero.
            expect(row).toMatchObject({
              n: 0,
              avg: null,
              min: null,
              max: null,
              first: null,
              last: null,
            });
            continue;
          }
          expect({
            n: row.n,
            sum: row.sum,
            min: row.min,
            max: row.max,
            open: row.first?.v,
            close: row.last?.v,
          }).toEqual(expected);
          expect(row.avg).toBeCloseTo(expected.sum / expected.n, 9);
          // Σx² in every full aggregate (and a compact sub-slot of one tick): every tick covered.
          const speeds = inWindow.map((t) => t.fields.speed!);
          const mean = expected.sum / expected.n;
          const variance = speeds.reduce((a, v) => a + (v - mean) ** 2, 0) / speeds.length;
          expect(row.coverage).toEqual({ spread: expected.n });
          expect(Math.abs(row.variance! - variance)).toBeLessThanOrEqual(
            1e-9 * Math.max(1, mean * mean),
          );
        }
        expect(result.rows.map((r) => r.series)).toEqual(sensors);
      });

      it('reports the silent sensor as a gap inside the boundary window', async () => {
        const result = await reader.window({
          series: [sensorKey(scenario.gapSensor)],
          field: 'speed',
          fromMs: at('2026-12-31T23:55:00Z'),
          toMs: at('2027-01-01T00:05:00Z'),
        });
        expect(result.rows[0]).toMatchObject({ n: 0, avg: null });
        expect(result.examined).toBeLessThanOrEqual(2); // its hour buckets exist, with ticks outside the window
      });

      it('rounds a ragged window out to whole minutes and says so', async () => {
        const result = await reader.window({
          series: [sensorKey(3)],
          field: 'speed',
          fromMs: at('2026-12-31T23:55:30Z'),
          toMs: at('2027-01-01T00:04:10Z'),
        });
        expect([result.fromMs, result.toMs]).toEqual([
          at('2026-12-31T23:55:00Z'),
          at('2027-01-01T00:05:00Z'),
        ]);
      });

      it('covers long windows with day buckets, not one document per minute', async () => {
        const result = await reader.window({
          series: [sensorKey(2)],
          field: 'travel_time',
          fromMs: scenario.fromMs,
          toMs: scenario.toMs,
        });
        expect(result.rows[0]).toMatchObject(
          (({ n, sum, min, max }) => ({ n, sum, min, max }))(
            expectedOf(ticksOf(sensorKey(2)), 'travel_time')!,
          ),
        );
        expect(result.examined).toBeLessThanOrEqual(2);
      });
    });

    describe('range reads stitched across partitions', () => {
      it.each<[string, string, 'slot' | 'sub', number, number]>([
        ['minute buckets, one point each', 'minute', 'slot', M, 40],
        ['hour buckets by minute', 'hour', 'sub', M, 2],
        ['hour buckets, one point each', 'hour', 'slot', H, 2],
        ['day buckets by hour', 'day', 'sub', H, 2],
      ])(
        '%s: every point equals the fold of its ticks',
        async (_name, level, detail, step, docs) => {
          const key = sensorKey(11);
          const result = await reader.range({
            series: key,
            field: 'speed',
            fromMs: scenario.fromMs,
            toMs: scenario.toMs,
            level,
            detail,
          });
          expect(result.points.map(totals)).toEqual(
            expectedPoints(scenario.ticks, key, 'speed', scenario.fromMs, scenario.toMs, step),
          );
          expect(result.examined).toBe(docs);
          expect(result.gaps).toEqual([]);
        },
      );

      it('reads the count, sum and mean of each second from minute buckets', async () => {
        const key = stockKey('INIT');
        const from = at('2026-12-31T23:59:30Z');
        const to = at('2027-01-01T00:00:30Z');
        const result = await reader.range({
          series: key,
          field: 'price',
          fromMs: from,
          toMs: to,
          level: 'minute',
          detail: 'sub',
        });
        const perSecond = new Map<number, { n: number; sum: number }>();
        for (const tick of ticksOf(key).filter((t) => t.ts >= from && t.ts < to)) {
          const second = Math.floor(tick.ts / 1000) * 1000;
          const seen = perSecond.get(second) ?? { n: 0, sum: 0 };
          perSecond.set(second, { n: seen.n + 1, sum: seen.sum + tick.fields.price! });
        }
        expect(result.points.map((p) => [p.t, p.n, p.sum, p.avg])).toEqual(
          [...perSecond]
            .sort(([a], [b]) => a - b)
            .map(([t, { n, sum }]) => [t, n, expect.closeTo(sum, 9), expect.closeTo(sum / n, 9)]),
        );
        expect(result.examined).toBe(2);
      });

      it('reads the seconds of a minute bucket written before the compact layout', async () => {
        // The layout before issue 15: the last value of each second as a {t, o, v} mark.
        const key = 'legacy|sensor=1';
        const start = at('2026-12-31T23:50:00Z');
        await store.partition('rollup_minute_20261231').replace([
          {
            _id: `${key}:202612312350`,
            series: key,
            metric: 'legacy',
            tags: { sensor: '1' },
            level: 'minute',
            start: new Date(start),
            n: 2,
            f: {
              speed: {
                n: 2,
                sum: 90,
                min: 40,
                max: 50,
                first: { t: start + 3_100, o: 1, v: 40 },
                last: { t: start + 3_900, o: 2, v: 50 },
                v: { '3': { t: start + 3_900, o: 2, v: 50 }, '4': { t: Number.NEGATIVE_INFINITY } },
              },
            },
            ap: { '0': 2 },
          },
        ]);
        const result = await reader.range({
          series: key,
          field: 'speed',
          fromMs: start,
          toMs: start + 60_000,
          level: 'minute',
          detail: 'sub',
        });
        expect(result.points.map((p) => [p.t, p.n, p.close])).toEqual([[start + 3_000, null, 50]]);
      });

      it('chooses the width from the range and the points wanted, and merges exactly', async () => {
        const key = sensorKey(20);
        const minutes = await reader.auto({
          series: key,
          field: 'speed',
          fromMs: scenario.fromMs,
          toMs: scenario.toMs,
          maxPoints: 50,
        });
        expect(minutes.resolution).toEqual({ stepMs: M, source: { level: 'hour', detail: 'sub' } });
        expect(minutes.examined).toBe(2);
        const fives = await reader.auto({
          series: key,
          field: 'speed',
          fromMs: scenario.fromMs,
          toMs: scenario.toMs,
          maxPoints: 8,
        });
        expect(fives.resolution.stepMs).toBe(5 * M);
        expect(fives.points.map(totals)).toEqual(
          expectedPoints(scenario.ticks, key, 'speed', scenario.fromMs, scenario.toMs, 5 * M),
        );
        const seconds = await reader.auto({
          series: key,
          field: 'speed',
          fromMs: scenario.fromMs,
          toMs: scenario.toMs,
          maxPoints: 2400,
        });
        expect(seconds.resolution).toEqual({
          stepMs: 1000,
          source: { level: 'minute', detail: 'sub' },
        });
        expect(seconds.points).toHaveLength(ticksOf(key).length); // 3-12 s apart: one tick per second at most
      });

      it('reports a silent stretch as a gap, never as zeros', async () => {
        const key = sensorKey(scenario.gapSensor);
        const result = await reader.range({
          series: key,
          field: 'speed',
          fromMs: scenario.fromMs,
          toMs: scenario.toMs,
          level: 'hour',
          detail: 'sub',
        });
        expect(result.points.some((p) => p.t >= scenario.gapFrom && p.t < scenario.gapTo)).toBe(
          false,
        );
        expect(result.points.every((p) => p.n !== null && p.n > 0)).toBe(true);
        expect(result.gaps).toContainEqual({ from: scenario.gapFrom, to: scenario.gapTo });
        // The range runs past the clock: no gap is claimed for the future, and shells are not data.
        const late = await reader.range({
          series: sensorKey(1),
          field: 'speed',
          fromMs: at('2027-01-01T00:15:00Z'),
          toMs: at('2027-01-01T02:00:00Z'),
          level: 'minute',
          detail: 'slot',
        });
        expect(late.points.at(-1)!.t).toBe(at('2027-01-01T00:19:00Z'));
        expect(late.gaps).toEqual([{ from: at('2027-01-01T00:20:00Z'), to: NOW }]);
      });

      it('draws candles at any width, open and close by event time', async () => {
        const key = stockKey('ACME');
        const result = await reader.candles({
          series: key,
          field: 'price',
          fromMs: scenario.fromMs,
          toMs: scenario.toMs,
          maxPoints: 10,
        });
        expect(result.resolution.stepMs).toBe(5 * M);
        expect(
          result.candles.map(({ t, open, high, low, close, volume }) => ({
            t,
            n: volume,
            open,
            max: high,
            min: low,
            close,
          })),
        ).toEqual(
          expectedPoints(scenario.ticks, key, 'price', scenario.fromMs, scenario.toMs, 5 * M).map(
            ({ t, n, open, max, min, close }) => ({ t, n, open, max, min, close }),
          ),
        );
      });
    });

    describe('series discovery, finality and freshness', () => {
      it('finds series by metric and tags, with their fields', async () => {
        const range = { fromMs: scenario.fromMs, toMs: scenario.toMs };
        const stocks = await reader.series({ ...range, metric: 'stock.tick', limit: 100 });
        expect(stocks.series.map((s) => [s.series, s.fields])).toEqual([
          [stockKey('ACME'), ['price', 'volume']],
          [stockKey('INIT'), ['price', 'volume']],
        ]);
        const traffic = await reader.series({ ...range, metric: 'traffic', limit: 100 });
        expect(traffic.series).toHaveLength(50);
        const segment = await reader.series({
          ...range,
          metric: 'traffic',
          tags: { segment: 'I80-2' },
          limit: 100,
        });
        expect(segment.series.map((s) => s.tags.segment)).toEqual(Array(10).fill('I80-2'));
        const few = await reader.series({ ...range, limit: 5 });
        expect(few).toMatchObject({ truncated: true });
        const everyKey = [...new Set(scenario.ticks.map((t) => t.seriesKey))].sort();
        expect(few.series.map((s) => s.series)).toEqual(everyKey.slice(0, 5)); // the first by key
        expect(few.examined).toBe(everyKey.length * 2); // a day bucket per series on each side of midnight
        const none = await reader.series({
          fromMs: at('2026-06-01T00:00:00Z'),
          toMs: at('2026-06-02T00:00:00Z'),
          limit: 5,
        });
        expect(none.series).toEqual([]);
      });

      it('reports freshness per level and finality from the scheduler watermark', async () => {
        const key = sensorKey(1);
        const newest = Math.max(...ticksOf(key).map((t) => t.ts));
        const before = await reader.status(key);
        expect(
          before.levels.map((l) => [l.level, l.freshnessMs, l.finalBefore, l.latestFinal]),
        ).toEqual(LEVELS.map((level) => [level, newest, null, false]));
        expect(before.levels[0]!.latestSlotMs).toBe(at('2027-01-01T00:19:00Z')); // the shell at 00:20 is not data
        await store.advanceWatermarks({ minute: at('2027-01-01T00:10:00Z') }, NOW);
        const range = await reader.range({
          series: key,
          field: 'speed',
          fromMs: at('2027-01-01T00:05:00Z'),
          toMs: at('2027-01-01T00:15:00Z'),
          level: 'minute',
          detail: 'slot',
        });
        expect(range.points.map((p) => [p.t, p.final])).toEqual(
          Array.from({ length: 10 }, (_, i) => [at('2027-01-01T00:05:00Z') + i * M, i < 5]),
        );
        const after = await reader.status(key);
        expect(after.levels[0]).toMatchObject({
          finalBefore: at('2027-01-01T00:10:00Z'),
          latestFinal: false,
        });
      });
    });

    describe('refusals, before any read', () => {
      const base = {
        series: sensorKey(1),
        field: 'speed',
        fromMs: at('2026-12-31T23:40:00Z'),
        toMs: at('2027-01-01T00:20:00Z'),
      };

      it.each<[string, () => Promise<unknown>, string]>([
        [
          'from after to',
          () =>
            reader.range({
              ...base,
              fromMs: base.toMs,
              toMs: base.fromMs,
              level: 'hour',
              detail: 'sub',
            }),
          QueryErrorCode.InvalidRange,
        ],
        [
          'an unknown level',
          () => reader.range({ ...base, level: 'week', detail: 'slot' }),
          QueryErrorCode.UnknownLevel,
        ],
        [
          'a bad series key',
          () => reader.range({ ...base, series: 'a|b', level: 'hour', detail: 'sub' }),
          QueryErrorCode.InvalidSeries,
        ],
        [
          'a field that is an operator',
          () => reader.auto({ ...base, field: '$where', maxPoints: 10 }),
          QueryErrorCode.InvalidName,
        ],
        [
          'a year of seconds',
          () =>
            reader.range({
              ...base,
              fromMs: at('2026-01-01T00:00:00Z'),
              level: 'minute',
              detail: 'sub',
            }),
          QueryErrorCode.TooManyPoints,
        ],
        [
          'too many series',
          () =>
            new RollupReader({ rollups: store }, { limits: { maxSeries: 10 } }).window({
              ...base,
              series: Array.from({ length: 11 }, (_, i) => sensorKey(i)),
            }),
          QueryErrorCode.TooManySeries,
        ],
        [
          'a read over budget',
          () =>
            new RollupReader({ rollups: store }, { limits: { maxDocuments: 30 } }).range({
              ...base,
              level: 'minute',
              detail: 'slot',
            }),
          QueryErrorCode.ReadBudgetExceeded,
        ],
        [
          'a window over budget',
          () =>
            new RollupReader({ rollups: store }, { limits: { maxDocuments: 99 } }).window({
              ...base,
              series: Array.from({ length: 50 }, (_, i) => sensorKey(i)),
              fromMs: at('2026-12-31T23:55:00Z'),
              toMs: at('2027-01-01T00:05:00Z'),
            }),
          QueryErrorCode.ReadBudgetExceeded,
        ],
        [
          'a discovery that would scan more documents than allowed',
          () =>
            new RollupReader({ rollups: store }, { limits: { maxDocuments: 100 } }).series({
              fromMs: scenario.fromMs,
              toMs: scenario.toMs,
              limit: 5,
            }),
          QueryErrorCode.ReadBudgetExceeded,
        ],
        [
          'a discovery over budget',
          () =>
            new RollupReader({ rollups: store }, { limits: { maxDocuments: 10 } }).series({
              fromMs: at('2026-01-01T00:00:00Z'),
              toMs: at('2027-01-01T00:00:00Z'),
              limit: 5,
            }),
          QueryErrorCode.ReadBudgetExceeded,
        ],
      ])('%s', async (_name, run, code) => {
        await expect(run()).rejects.toMatchObject({ code, retriable: false });
      });
    });
  });
}
