import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS, LEVEL_SPECS, slotStart, type Level } from '@tickertape/buckets';
import { TestStack } from '@tickertape/testing';
import type {
  CandlesBody,
  LevelsBody,
  PointsBody,
  SeriesBody,
  StatusBody,
  WindowBody,
} from '../../src/response-schemas.js';
import { qs, startTestApi, type RunningApi } from '../support/api.js';
import { refGaps, refPoints, refSecondPoints, refWindow, ticksOf } from '../support/reference.js';
import { MARKS, MINUTE, NOW, at, dataset, storedTicks } from '../support/ticks.js';

const data = dataset();
const [s1, s2, s3] = data.sensors as [string, string, string];

/** The stats of a row, point or candle (checked against the fold separately: floating sums). */
const STATS = ['variance', 'stddev', 'quantiles', 'weighted', 'coverage'];
const withoutStats = <T extends object>(row: T): T =>
  Object.fromEntries(Object.entries(row).filter(([key]) => !STATS.includes(key))) as T;

/** The points without `final`, which is checked against the watermark separately, and stats. */
const values = (points: PointsBody['points']) =>
  points.map(({ final: _final, ...rest }) => withoutStats(rest));

/** Population variance of the values, two-pass: the fold the stored Σx² must agree with. */
function foldVariance(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
}

/** The value at rank ⌊φ·(n − 1)⌋ of the sorted values: what a sketch's quantile is within α of. */
function rankValue(values: readonly number[], phi: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(phi * (sorted.length - 1))]!;
}

function expectFinality(points: { t: number; final: boolean }[], level: Level): void {
  for (const point of points)
    expect(point.final).toBe(slotStart(level, point.t) + LEVEL_SPECS[level].slotMs <= MARKS[level]);
}

describe('read routes over HTTP, against values computed from the ticks', () => {
  let stack: TestStack;
  let api: RunningApi;

  beforeAll(async () => {
    stack = await TestStack.open('api-reads');
    const { stores } = await storedTicks(stack, data.ticks);
    api = await startTestApi(stores, { reader: { now: () => NOW } });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it('reads one level by slot: minute points across midnight (two daily partitions)', async () => {
    const from = at('2025-12-31T23:50:00Z');
    const to = at('2026-01-01T00:50:00Z');
    const res = await api.get<PointsBody>(
      `/api/v1/points${qs(['series', s2], ['field', 'speed'], ['from', '2025-12-31T23:50:00Z'], ['to', to], ['level', 'minute'])}`,
    );
    expect(res.status).toBe(200);
    const expected = refPoints(ticksOf(data.ticks, s2, 'speed', from, to), 'speed', MINUTE);
    expect(expected).toHaveLength(60);
    expect(res.body).toMatchObject({
      series: s2,
      field: 'speed',
      fromMs: from,
      toMs: to,
      resolution: { stepMs: MINUTE, source: { level: 'minute', detail: 'slot' } },
      gaps: [],
      examined: 60,
    });
    expect(values(res.body.points)).toEqual(expected);
    expectFinality(res.body.points, 'minute');
  });

  it('reads sub-slots of one hour bucket, reporting the hole as a gap rather than zeros', async () => {
    const from = at('2025-12-31T23:00:00Z');
    const to = at('2026-01-01T00:00:00Z');
    const res = await api.get<PointsBody>(
      `/api/v1/points${qs(['series', s1], ['field', 'count'], ['from', from], ['to', to], ['level', 'hour'], ['detail', 'sub'])}`,
    );
    expect(res.status).toBe(200);
    const expected = refPoints(ticksOf(data.ticks, s1, 'count', from, to), 'count', MINUTE);
    expect(expected).toHaveLength(50);
    expect(values(res.body.points)).toEqual(expected);
    expect(res.body.gaps).toEqual([data.hole]);
    expect(res.body.examined).toBe(1);
    expect(res.body.points.every((p) => p.final)).toBe(true);
  });

  it('chooses the finest width that fits maxPoints: 2-minute points from four hour buckets', async () => {
    const from = data.start;
    const to = data.end;
    const res = await api.get<PointsBody>(
      `/api/v1/points${qs(['series', s3], ['field', 'speed'], ['from', from], ['to', to], ['maxPoints', 100])}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.resolution).toEqual({
      stepMs: 2 * MINUTE,
      source: { level: 'hour', detail: 'sub' },
    });
    expect(values(res.body.points)).toEqual(
      refPoints(ticksOf(data.ticks, s3, 'speed', from, to), 'speed', 2 * MINUTE),
    );
    expect(res.body.examined).toBe(4);
    expectFinality(res.body.points, 'hour');
  });

  it.each([
    [200, 1000],
    [30, 5000],
  ])(
    'reads seconds from minute buckets (maxPoints %i → %i ms points, exact counts and sums)',
    async (maxPoints, stepMs) => {
      const from = at('2026-01-01T00:10:00Z');
      const to = at('2026-01-01T00:12:00Z');
      const res = await api.get<PointsBody>(
        `/api/v1/points${qs(['series', s2], ['field', 'speed'], ['from', from], ['to', to], ['maxPoints', maxPoints])}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.resolution).toEqual({ stepMs, source: { level: 'minute', detail: 'sub' } });
      const expected = refSecondPoints(ticksOf(data.ticks, s2, 'speed', from, to), 'speed', stepMs);
      expect(values(res.body.points)).toEqual(expected);
      expect(res.body.gaps).toEqual(refGaps(expected, from, to, stepMs));
      expect(res.body.examined).toBe(2);
    },
  );

  it('answers the same for epoch ms, ISO-8601 in UTC and ISO-8601 with an offset', async () => {
    const ask = (from: string, to: string) =>
      api.get<PointsBody>(
        `/api/v1/points${qs(['series', s2], ['field', 'speed'], ['from', from], ['to', to])}`,
      );
    const epoch = await ask(String(at('2026-01-01T00:00:00Z')), String(at('2026-01-01T00:30:00Z')));
    const iso = await ask('2026-01-01T00:00:00Z', '2026-01-01T00:30:00.000Z');
    const offset = await ask('2026-01-01T01:00:00+01:00', '2026-01-01T01:30+01:00');
    expect(epoch.status).toBe(200);
    expect(iso.body).toEqual(epoch.body);
    expect(offset.body).toEqual(epoch.body);
  });

  it('draws 5-minute candles of the stock over an hour', async () => {
    const from = at('2026-01-01T00:00:00Z');
    const to = at('2026-01-01T01:00:00Z');
    const res = await api.get<CandlesBody>(
      `/api/v1/candles${qs(['series', data.stock], ['field', 'price'], ['from', from], ['to', to], ['maxPoints', 12])}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.resolution).toEqual({
      stepMs: 5 * MINUTE,
      source: { level: 'hour', detail: 'sub' },
    });
    const expected = refPoints(
      ticksOf(data.ticks, data.stock, 'price', from, to),
      'price',
      5 * MINUTE,
    );
    expect(res.body.candles.map(withoutStats)).toEqual(
      expected.map((p) => ({
        t: p.t,
        open: p.open,
        high: p.max,
        low: p.min,
        close: p.close,
        volume: p.n,
        final: false,
      })),
    );
    expect(res.body.examined).toBe(1);
    expect(res.body).not.toHaveProperty('points');
  });

  it('sums a 10-minute window across midnight for three sensors from two hour buckets each', async () => {
    const from = at('2025-12-31T23:55:00Z');
    const to = at('2026-01-01T00:05:00Z');
    const res = await api.get<WindowBody>(
      `/api/v1/window${qs(['series', s3], ['series', s1], ['series', s2], ['field', 'speed'], ['from', from], ['to', to])}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ field: 'speed', fromMs: from, toMs: to, examined: 6 });
    expect(res.body.rows.map(withoutStats)).toEqual(
      [s3, s1, s2].map((series) => ({
        series,
        ...refWindow(ticksOf(data.ticks, series, 'speed', from, to), 'speed'),
        // Hour 23 is final, hour 00 is not: the row is only as final as its least final part.
        final: false,
      })),
    );
    expect(res.body.pieces).toEqual([
      { level: 'hour', start: at('2025-12-31T23:00:00Z'), sub: { from: 55, to: 60 } },
      { level: 'hour', start: at('2026-01-01T00:00:00Z'), sub: { from: 0, to: 5 } },
    ]);
  });

  it('takes last=10m as the ten whole minutes up to the current one, and to defaulting to now', async () => {
    const last = await api.get<WindowBody>(
      `/api/v1/window${qs(['series', s1], ['field', 'count'], ['last', '10m'])}`,
    );
    const from = at('2026-01-01T01:06:00Z');
    const to = at('2026-01-01T01:16:00Z');
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ fromMs: from, toMs: to });
    expect(last.body.rows[0]).toMatchObject(
      refWindow(ticksOf(data.ticks, s1, 'count', from, to), 'count'),
    );

    const open = await api.get<WindowBody>(
      `/api/v1/window${qs(['series', s1], ['field', 'count'], ['from', from])}`,
    );
    expect(open.body).toEqual(last.body);
  });

  it('reports a series without data in the window as nulls, not zeros', async () => {
    const res = await api.get<WindowBody>(
      `/api/v1/window${qs(['series', s1], ['field', 'speed'], ['from', data.hole.from], ['to', data.hole.to])}`,
    );
    expect(res.body.rows).toEqual([
      {
        series: s1,
        n: 0,
        sum: 0,
        avg: null,
        min: null,
        max: null,
        first: null,
        last: null,
        variance: null,
        stddev: null,
        coverage: { spread: 0 },
        final: true,
      },
    ]);
  });

  it('gives the spread of each row and point exactly (Σx² in every full aggregate), covering every tick', async () => {
    const from = at('2025-12-31T23:55:00Z');
    const to = at('2026-01-01T00:05:00Z');
    const window = await api.get<WindowBody>(
      `/api/v1/window${qs(['series', s1], ['series', s2], ['field', 'speed'], ['from', from], ['to', to])}`,
    );
    expect(window.status).toBe(200);
    for (const row of window.body.rows) {
      const speeds = ticksOf(data.ticks, row.series, 'speed', from, to).map((t) => t.fields.speed!);
      expect(row.coverage).toEqual({ spread: speeds.length });
      expect(row.variance).toBeCloseTo(foldVariance(speeds), 9);
      expect(row.stddev).toBeCloseTo(Math.sqrt(foldVariance(speeds)), 9);
    }
    const points = await api.get<PointsBody>(
      `/api/v1/points${qs(['series', s3], ['field', 'speed'], ['from', data.start], ['to', data.end], ['maxPoints', 100])}`,
    );
    for (const point of points.body.points) {
      const speeds = ticksOf(data.ticks, s3, 'speed', point.t, point.t + 2 * MINUTE).map(
        (t) => t.fields.speed!,
      );
      expect(point.coverage.spread).toBe(speeds.length);
      expect(point.variance).toBeCloseTo(foldVariance(speeds), 9);
    }
  });

  it('answers the quantiles asked for on every read, saying how many ticks they cover', async () => {
    const from = at('2026-01-01T00:00:00Z');
    const to = at('2026-01-01T00:30:00Z');
    const window = await api.get<WindowBody>(
      `/api/v1/window${qs(['series', s2], ['field', 'speed'], ['from', from], ['to', to], ['quantile', '0.5,0.85'], ['quantile', '0.99'])}`,
    );
    expect(window.status).toBe(200);
    const [row] = window.body.rows;
    expect(Object.keys(row!.quantiles!)).toEqual(['q0.5', 'q0.85', 'q0.99']);
    const speeds = ticksOf(data.ticks, s2, 'speed', from, to).map((t) => t.fields.speed!);
    // Without a sketching policy only single-tick parts are known exactly: never a guess.
    const covered = row!.coverage.sketch!;
    expect(covered).toBeLessThanOrEqual(speeds.length);
    if (covered === speeds.length)
      for (const phi of [0.5, 0.85, 0.99]) {
        const truth = rankValue(speeds, phi);
        expect(Math.abs(row!.quantiles![`q${phi}`]! - truth)).toBeLessThanOrEqual(
          0.01 * Math.abs(truth) + 1e-9,
        );
      }
    else if (covered === 0)
      expect(row!.quantiles).toEqual({ 'q0.5': null, 'q0.85': null, 'q0.99': null });

    for (const route of ['points', 'candles']) {
      const res = await api.get<PointsBody & CandlesBody>(
        `/api/v1/${route}${qs(['series', s2], ['field', 'speed'], ['from', from], ['to', to], ['quantile', '0.85'])}`,
      );
      expect(res.status).toBe(200);
      const answered = route === 'points' ? res.body.points : res.body.candles;
      expect(answered.length).toBeGreaterThan(0);
      for (const each of answered) {
        expect(Object.keys(each.quantiles!)).toEqual(['q0.85']);
        expect(each.coverage.sketch).toEqual(expect.any(Number));
      }
      const csv = await api.get(
        `/api/v1/${route}${qs(['series', s2], ['field', 'speed'], ['from', from], ['to', to], ['quantile', '0.85'], ['format', 'csv'])}`,
      );
      expect(csv.text.split('\r\n')[0]).toMatch(
        /,variance,stddev,q0\.85,coverage_spread,coverage_sketch,final$/,
      );
    }
  });

  it('discovers series by metric and tags over the last 7 days by default', async () => {
    const speed = await api.get<SeriesBody>(`/api/v1/series${qs(['metric', 'speed'])}`);
    expect(speed.status).toBe(200);
    expect(speed.body).toEqual({
      level: 'day',
      truncated: false,
      // A day bucket per sensor per day: 31 December and 1 January.
      examined: 6,
      series: [s1, s2, s3].map((series, i) => ({
        series,
        metric: 'speed',
        tags: { road: 'a1', sensor: `s${i + 1}` },
        fields: ['count', 'speed'],
        lastSlotMs: at('2026-01-01T00:00:00Z'),
      })),
    });

    const tagged = await api.get<SeriesBody>(
      `/api/v1/series${qs(['tag', 'sensor:s2'], ['tag', 'road:a1'])}`,
    );
    expect(tagged.body.series.map((s: { series: string }) => s.series)).toEqual([s2]);

    const limited = await api.get<SeriesBody>(`/api/v1/series${qs(['limit', 2])}`);
    expect(limited.body.series.map((s: { series: string }) => s.series)).toEqual(
      [data.stock, s1, s2, s3].sort().slice(0, 2),
    );
    expect(limited.body.truncated).toBe(true);

    const before = await api.get<SeriesBody>(`/api/v1/series${qs(['to', '2025-12-31T00:00:00Z'])}`);
    expect(before.body).toMatchObject({ series: [], examined: 0 });
  });

  it('reports freshness and finality of a series at every level', async () => {
    const res = await api.get<StatusBody>(`/api/v1/status${qs(['series', s2])}`);
    expect(res.status).toBe(200);
    const newest = ticksOf(data.ticks, s2, 'speed', 0, Infinity).at(-1)!;
    expect(res.body).toEqual({
      series: s2,
      examined: 3,
      levels: LEVELS.map((level) => ({
        level,
        latestSlotMs: slotStart(level, newest.ts),
        freshnessMs: newest.ts,
        latestFinal: false,
        finalBefore: MARKS[level],
        lag: null,
      })),
    });
  });

  it('lists the levels with their watermarks (lag unknown without Kafka) and level policy', async () => {
    const res = await api.get<LevelsBody>('/api/v1/levels');
    expect(res.body).toEqual({
      levels: LEVELS.map((level) => ({
        level,
        finalBefore: MARKS[level],
        lag: null,
        skips: [],
        compact: [],
        pinned: [],
      })),
      sketches: [],
      sketchAlpha: [],
      weights: [],
      autoSkips: [],
    });
  });

  it('counts what the reads examined in /metrics', async () => {
    const text = (await api.get('/metrics', null)).text;
    expect(text).toMatch(
      /tickertape_api_documents_examined_count\{route="\/api\/v1\/window"\} [1-9]/,
    );
    expect(text).toMatch(
      /tickertape_api_requests_total\{route="\/api\/v1\/points",method="GET",status="200"\} [1-9]/,
    );
  });
});
