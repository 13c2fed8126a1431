import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS, type FoldInput } from '@tickertape/buckets';
import { seriesKey } from '@tickertape/tick';
import { QueryErrorCode, RollupReader, fillRange, type Point } from '../../src/index.js';
import type { OpenedStore } from './opened-store.js';
import { expectedOf, random } from './ticks.js';

const at = (iso: string) => Date.parse(iso);
const M = 60_000;
const H = 60 * M;
const D = 24 * H;
const NOW = at('2026-12-01T00:00:00Z');

const LA = 'America/Los_Angeles';
const KOLKATA = 'Asia/Kolkata';
const la = seriesKey('traffic', { sensor: 'la-1' });
const kolkata = seriesKey('traffic', { sensor: 'in-1' });
/** A local day in Los Angeles without ticks: a gap of 24 hours. */
const LA_SILENT = { from: at('2026-03-10T07:00:00Z'), to: at('2026-03-11T07:00:00Z') };

/** Ticks every 1-13 minutes with integer speeds (sums exact in any order). */
function ticks(): FoldInput[] {
  const next = random(36);
  const out: FoldInput[] = [];
  let offset = 0;
  const span = (key: string, sensor: string, from: number, to: number, skip?: typeof LA_SILENT) => {
    for (let ts = from + next(M); ts < to; ts += M + next(12 * M)) {
      if (skip && ts >= skip.from && ts < skip.to) continue;
      out.push({
        seriesKey: key,
        metric: 'traffic',
        tags: { sensor },
        ts,
        fields: { speed: next(120) },
        strings: {},
        kafkaPartition: 0,
        offset: offset++,
      });
    }
  };
  span(la, 'la-1', at('2026-03-04T00:00:00Z'), at('2026-03-13T00:00:00Z'), LA_SILENT);
  span(la, 'la-1', at('2026-10-28T00:00:00Z'), at('2026-11-06T00:00:00Z'));
  span(kolkata, 'in-1', at('2026-03-06T00:00:00Z'), at('2026-03-11T00:00:00Z'));
  return out;
}

/** The reference: ticks grouped by their local calendar label, read with Intl on its own. */
function localFold(
  all: readonly FoldInput[],
  key: string,
  zone: string,
  withHour: boolean,
  fromMs: number,
  toMs: number,
) {
  const label = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    ...(withHour ? { hour: '2-digit', timeZoneName: 'shortOffset' } : {}),
  });
  const groups = new Map<string, FoldInput[]>();
  for (const tick of all) {
    if (tick.seriesKey !== key || tick.ts < fromMs || tick.ts >= toMs) continue;
    const name = label.format(tick.ts);
    groups.set(name, [...(groups.get(name) ?? []), tick]);
  }
  return [...groups.values()].map((group) => expectedOf(group, 'speed')!);
}

const totals = (p: Point) => ({
  n: p.n,
  sum: p.sum,
  min: p.min,
  max: p.max,
  open: p.open,
  close: p.close,
});

/** Local days and hours on buckets written by the real write path, against a fold of the ticks. */
export function describeLocalTime(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name}: local steps (tz) against a fold of the ticks in each local step`, () => {
    let opened: OpenedStore;
    let reader: RollupReader;
    const all = ticks();

    beforeAll(async () => {
      opened = await open();
      for (const level of LEVELS) {
        const writer = opened.store.writer(level);
        for (let i = 0; i < all.length; i += 2000) await writer.apply(all.slice(i, i + 2000));
      }
      reader = new RollupReader({ rollups: opened.store }, { now: () => NOW });
    }, 120_000);
    afterAll(() => opened.close());

    it.each([
      ['the spring week', '2026-03-05T08:00:00Z', '2026-03-12T07:00:00Z', 23],
      ['the fall week', '2026-10-29T07:00:00Z', '2026-11-05T08:00:00Z', 25],
    ])(
      'Los Angeles days across %s: 23 or 25 hours, each the fold of its local day',
      async (_n, from, to, dstHours) => {
        const result = await reader.range({
          series: la,
          field: 'speed',
          fromMs: at(from),
          toMs: at(to),
          tz: LA,
          level: 'day',
          detail: 'slot',
        });
        expect(result.tz).toBe(LA);
        expect(result.points.map(totals)).toEqual(localFold(all, la, LA, false, at(from), at(to)));
        const hours = result.points.map((p) => (p.end! - p.t) / H);
        expect(hours).toContain(dstHours);
        expect(hours.filter((h) => h !== 24)).toEqual([dstHours]);
        for (const p of result.points) expect(p.local).toMatch(/T00:00:00\.000-0[78]:00$/);
        // Two day buckets per local day at most, shared by neighbours: days plus one.
        expect(result.examined).toBeLessThanOrEqual(result.points.length + 2);
      },
    );

    it('says a silent local day is a gap of its 24 hours, and fills it on request', async () => {
      const query = {
        series: la,
        field: 'speed',
        fromMs: at('2026-03-05T08:00:00Z'),
        toMs: at('2026-03-12T07:00:00Z'),
        tz: LA,
        level: 'day',
        detail: 'slot' as const,
      };
      const result = await reader.range(query);
      expect(result.points.map((p) => p.t)).not.toContain(LA_SILENT.from);
      expect(result.gaps).toEqual([LA_SILENT]);
      const filled = fillRange(result, 'previous', NOW);
      const day = filled.points.find((p) => p.t === LA_SILENT.from)!;
      const before = result.points.find((p) => p.end === LA_SILENT.from)!;
      expect(day).toMatchObject({
        filled: true,
        n: null,
        end: LA_SILENT.to,
        avg: before.avg,
        local: '2026-03-10T00:00:00.000-07:00',
      });
    });

    it('Los Angeles hours on the fall day: 25 real hours, 01:00 twice', async () => {
      const from = at('2026-11-01T07:00:00Z');
      const to = at('2026-11-02T08:00:00Z');
      const result = await reader.range({
        series: la,
        field: 'speed',
        fromMs: from,
        toMs: to,
        tz: LA,
        level: 'hour',
        detail: 'slot',
      });
      expect(result.points.map(totals)).toEqual(localFold(all, la, LA, true, from, to));
      expect(result.points.every((p) => p.end === p.t + H)).toBe(true);
      expect(result.points.filter((p) => p.local?.startsWith('2026-11-01T01:00'))).toHaveLength(2);
    });

    it('Kolkata days start at 18:30 UTC, read from finer buckets at the half hours', async () => {
      const from = at('2026-03-06T18:30:00Z');
      const to = at('2026-03-10T18:30:00Z');
      const result = await reader.range({
        series: kolkata,
        field: 'speed',
        fromMs: from,
        toMs: to,
        tz: KOLKATA,
        level: 'day',
        detail: 'slot',
      });
      expect(result.points.map((p) => new Date(p.t).toISOString())).toEqual([
        '2026-03-06T18:30:00.000Z',
        '2026-03-07T18:30:00.000Z',
        '2026-03-08T18:30:00.000Z',
        '2026-03-09T18:30:00.000Z',
      ]);
      expect(result.points.map(totals)).toEqual(localFold(all, kolkata, KOLKATA, false, from, to));
      // Per local day: a day bucket's hours and an hour bucket's minutes at each edge.
      expect(result.examined).toBeLessThanOrEqual(3 * result.points.length + 1);
    });

    it('Kolkata hours: each the fold of its local hour', async () => {
      const from = at('2026-03-07T18:30:00Z');
      const to = at('2026-03-08T18:30:00Z');
      const result = await reader.range({
        series: kolkata,
        field: 'speed',
        fromMs: from,
        toMs: to,
        tz: KOLKATA,
        level: 'hour',
        detail: 'slot',
      });
      expect(result.points).toHaveLength(24);
      expect(result.points.map(totals)).toEqual(localFold(all, kolkata, KOLKATA, true, from, to));
      expect(result.points.every((p) => p.t % H === 30 * M && p.end === p.t + H)).toBe(true);
    });

    it('automatic resolution picks local days, and candles carry them', async () => {
      const query = {
        series: kolkata,
        field: 'speed',
        fromMs: at('2026-03-06T18:30:00Z'),
        toMs: at('2026-03-10T18:30:00Z'),
        tz: KOLKATA,
        maxPoints: 5,
      };
      const auto = await reader.auto(query);
      expect(auto.resolution.stepMs).toBe(D);
      expect(auto.points.map((p) => p.local)).toEqual([
        '2026-03-07T00:00:00.000+05:30',
        '2026-03-08T00:00:00.000+05:30',
        '2026-03-09T00:00:00.000+05:30',
        '2026-03-10T00:00:00.000+05:30',
      ]);
      const candles = await reader.candles(query);
      expect(candles.candles.map((c) => [c.t, c.end, c.high])).toEqual(
        auto.points.map((p) => [p.t, p.end, p.max]),
      );
    });

    it('without tz the answer is what it was: no zone, no end, no local time', async () => {
      const result = await reader.range({
        series: la,
        field: 'speed',
        fromMs: at('2026-03-05T00:00:00Z'),
        toMs: at('2026-03-07T00:00:00Z'),
        level: 'day',
        detail: 'slot',
      });
      expect('tz' in result).toBe(false);
      for (const p of result.points) {
        expect(p).not.toHaveProperty('end');
        expect(p).not.toHaveProperty('local');
      }
    });

    it('refuses an unknown zone', async () => {
      await expect(
        reader.auto({
          series: la,
          field: 'speed',
          fromMs: 0,
          toMs: D,
          tz: 'Mars/Base',
          maxPoints: 10,
        }),
      ).rejects.toMatchObject({ code: QueryErrorCode.InvalidTimeZone });
    });
  });
}
