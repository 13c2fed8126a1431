import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import type { FoldInput } from '@tickertape/buckets';
import { SegmentWriter, dayOf } from '@tickertape/segments';
import { TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import type { ErrorBody } from '../../src/api-error.js';
import type { RawBody } from '../../src/response-schemas.js';
import { qs, startTestApi, type RunningApi } from '../support/api.js';
import { HOUR, MINUTE, at, dataset, foldInputs } from '../support/ticks.js';
import { testDatabase } from '@tickertape/store/testing';

/**
 * GET /api/v1/raw over segments written by the real SegmentWriter from the shared dataset
 * (three sensors and a stock across New Year's midnight, a few ticks arriving after a later
 * one), compared with the ticks themselves: every point exactly, and the nearest point on each
 * side of the range, across the day boundary included.
 */

const NOW = at('2026-01-01T01:30:00Z');
const MAX_POINTS = 100;
const data = dataset();
const [s1, s2] = data.sensors as [string, string];
/** A series silent across midnight: points on both days, none from 21:00 to 03:00. */
const QUIET = seriesKey('temp', { room: 'attic' });
const QUIET_TIMES = ['2025-12-31T20:00:00Z', '2025-12-31T21:00:00Z', '2026-01-01T03:00:00Z'];

/** What the store holds of one series, by the rule the writer documents. */
interface RefSegmentPoint {
  t: number;
  v: Record<string, number>;
  /** Which segment holds it: `day/index within the day`, for counting documents. */
  segment: string;
}

/**
 * The points of each series as the segment store keeps them, computed from the ticks: in
 * arrival (offset) order, a tick older than one that arrived before it is left to the rollups;
 * each UTC day's points fill segments of MAX_POINTS in order.
 */
function referenceStore(inputs: readonly FoldInput[]): Map<string, RefSegmentPoint[]> {
  const store = new Map<string, RefSegmentPoint[]>();
  const ordered = [...inputs].sort(
    (a, b) => a.kafkaPartition - b.kafkaPartition || a.offset - b.offset,
  );
  for (const tick of ordered) {
    const points = store.get(tick.seriesKey) ?? [];
    const last = points.at(-1);
    if (last && tick.ts < last.t) continue;
    const day = dayOf(tick.ts);
    const sameDay = points.filter((p) => p.segment.startsWith(`${day}/`)).length;
    points.push({
      t: tick.ts,
      v: { ...tick.fields },
      segment: `${day}/${Math.floor(sameDay / MAX_POINTS)}`,
    });
    store.set(tick.seriesKey, points);
  }
  return store;
}

const quietInputs: FoldInput[] = QUIET_TIMES.map((iso, i) => ({
  seriesKey: QUIET,
  metric: 'temp',
  tags: { room: 'attic' },
  ts: at(iso),
  fields: { temp: 18 + i },
  strings: {},
  // Its own Kafka partition: offsets independent of the dataset's.
  kafkaPartition: 1,
  offset: i,
}));
const inputs = [...foldInputs(data.ticks), ...quietInputs];
const store = referenceStore(inputs);

/** The answer the store must give for [from, to), and the segments holding what it returns. */
function expected(series: string, fromMs: number, toMs: number, field?: string) {
  const all = store.get(series) ?? [];
  const pick = (p: RefSegmentPoint | undefined) =>
    p === undefined ? null : { t: p.t, v: field === undefined ? p.v : { [field]: p.v[field]! } };
  const inside = all.filter((p) => p.t >= fromMs && p.t < toMs);
  const before = all.filter((p) => p.t < fromMs).at(-1);
  const after = all.find((p) => p.t >= toMs);
  const held = [...inside, before, after].filter((p) => p !== undefined);
  return {
    body: {
      series,
      fromMs,
      toMs,
      points: inside.map((p) => pick(p)!),
      before: pick(before),
      after: pick(after),
    },
    // Each segment holding a point of the answer is read once, and no other.
    examined: new Set(held.map((p) => p.segment)).size,
  };
}

const raw = (...pairs: [string, string | number][]) => `/api/v1/raw${qs(...pairs)}`;

describe('GET /api/v1/raw: exact points from the segment store, against the ticks', () => {
  let stack: TestStack;
  let api: RunningApi;

  beforeAll(async () => {
    stack = await TestStack.open('api-raw');
    const db = testDatabase(stack);
    const writer = new SegmentWriter((await storesOf(db)).segments, {
      maxPoints: MAX_POINTS,
      writeOnlyOnChange: new Set(),
    });
    // In flushes, as a worker would make them.
    for (let i = 0; i < inputs.length; i += 2000) await writer.apply(inputs.slice(i, i + 2000));
    api = await startTestApi(await storesOf(db), {
      reader: { now: () => NOW, limits: { maxDocuments: 40 } },
    });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  async function expectRaw(path: string, want: ReturnType<typeof expected>): Promise<RawBody> {
    const res = await api.get<RawBody>(path);
    expect(res.status).toBe(200);
    const { examined, ...body } = res.body;
    expect(body).toEqual(want.body);
    expect(examined).toBe(want.examined);
    return res.body;
  }

  it('has ticks the store left to the rollups in the dataset (the reference models them)', () => {
    const kept = [...store.values()].reduce((n, points) => n + points.length, 0);
    expect(kept).toBeLessThan(inputs.length);
    expect(kept).toBeGreaterThan(inputs.length * 0.95);
  });

  it('returns every point of a range across midnight, one field, with both neighbours', async () => {
    const from = at('2025-12-31T23:50:00Z');
    const to = at('2026-01-01T00:10:00Z');
    const want = expected(data.stock, from, to, 'price');
    // A fair sample: hundreds of points, segments on both days.
    expect(want.body.points.length).toBeGreaterThan(300);
    expect(want.examined).toBeGreaterThan(3);
    const body = await expectRaw(
      raw(['series', data.stock], ['field', 'price'], ['from', from], ['to', to]),
      want,
    );
    expect(body.before!.t).toBeLessThan(from);
    expect(body.after!.t).toBeGreaterThanOrEqual(to);
  });

  it('finds the neighbour before midnight in the previous day’s collection, all fields', async () => {
    const from = at('2026-01-01T00:00:00Z');
    const to = from + 5 * MINUTE;
    const want = expected(s2, from, to);
    expect(Object.keys(want.body.points[0]!.v).sort()).toEqual(['count', 'speed']);
    expect(dayOf(want.body.before!.t)).toBe('20251231');
    await expectRaw(raw(['series', s2], ['from', '2026-01-01T00:00:00Z'], ['to', to]), want);
  });

  it('reaches across a silent midnight to the nearest points on both sides', async () => {
    // The range's day holds only the 03:00 segment; the 21:00 point is fetched from the day before.
    const night = expected(QUIET, at('2026-01-01T00:30:00Z'), at('2026-01-01T02:00:00Z'));
    expect(night.body).toMatchObject({
      points: [],
      before: { t: at('2025-12-31T21:00:00Z'), v: { temp: 19 } },
      after: { t: at('2026-01-01T03:00:00Z'), v: { temp: 20 } },
    });
    await expectRaw(
      raw(['series', QUIET], ['from', night.body.fromMs], ['to', night.body.toMs]),
      night,
    );
    // A range over both days with the gap inside it.
    const both = expected(QUIET, at('2025-12-31T20:30:00Z'), at('2026-01-01T04:00:00Z'));
    expect(both.body.points.map((p) => p.t)).toEqual([
      at('2025-12-31T21:00:00Z'),
      at('2026-01-01T03:00:00Z'),
    ]);
    await expectRaw(
      raw(['series', QUIET], ['from', both.body.fromMs], ['to', both.body.toMs]),
      both,
    );
  });

  it('answers a range before the first point with only the point after it', async () => {
    const from = at('2025-12-30T00:00:00Z');
    const to = at('2025-12-31T12:00:00Z');
    const want = expected(s1, from, to, 'speed');
    expect(want.body).toMatchObject({ points: [], before: null, after: { t: data.start } });
    await expectRaw(raw(['series', s1], ['field', 'speed'], ['from', from], ['to', to]), want);
  });

  it('reads up to now when `to` is left out, with no point after it yet', async () => {
    const from = data.end - 2 * MINUTE;
    const want = expected(s1, from, NOW, 'count');
    expect(want.body.after).toBeNull();
    expect(want.body.points.length).toBeGreaterThan(5);
    await expectRaw(raw(['series', s1], ['field', 'count'], ['from', from]), want);
  });

  it('answers an unknown series with nothing, reading nothing', async () => {
    const res = await api.get<RawBody>(
      raw(['series', 'speed|sensor=nope'], ['from', data.start], ['to', data.end]),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ points: [], before: null, after: null, examined: 0 });
  });

  const acme = data.stock;
  it.each<[string, string, RegExp, [string, string | number][]]>([
    [
      'a range holding more segments than the read budget',
      'QUERY_READ_BUDGET_EXCEEDED',
      /the limit is 40: narrow the range/,
      [
        ['series', acme],
        ['from', data.start],
        ['to', data.end],
      ],
    ],
    [
      'an empty range',
      'QUERY_INVALID_RANGE',
      /must be before/,
      [
        ['series', acme],
        ['from', data.end],
        ['to', data.start],
      ],
    ],
    [
      'a malformed series key',
      'QUERY_INVALID_SERIES',
      /^invalid series key "speed\|sensor"/,
      [
        ['series', 'speed|sensor'],
        ['from', data.start],
      ],
    ],
    [
      'a field that is not a name',
      'QUERY_INVALID_NAME',
      /^invalid field name "a\.b"/,
      [
        ['series', acme],
        ['field', 'a.b'],
        ['from', data.start],
      ],
    ],
    [
      'an unreadable time',
      'invalid_request',
      /^from: "yesterday" is not a time/,
      [
        ['series', acme],
        ['from', 'yesterday'],
      ],
    ],
    [
      'a parameter of another route',
      'invalid_request',
      /Unrecognized key: "maxPoints"/,
      [
        ['series', acme],
        ['from', data.start],
        ['maxPoints', 10],
      ],
    ],
  ])('refuses %s with 400 %s', async (_case, code, message, pairs) => {
    const res = await api.get<ErrorBody>(raw(...pairs));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(code);
    expect(res.body.message).toMatch(message);
  });

  it('needs the token, and counts the documents each read examined under its route', async () => {
    const path = raw(['series', s1], ['from', data.start], ['to', data.start + HOUR / 4]);
    expect((await api.get(path, null)).status).toBe(401);
    const before = await api.get<string>('/metrics', null);
    const count = (text: string) =>
      Number(
        /^tickertape_api_documents_examined_count\{route="\/api\/v1\/raw"\} (\d+)$/m.exec(
          text,
        )?.[1] ?? 0,
      );
    const answer = await api.get<RawBody>(path);
    expect(answer.status).toBe(200);
    const after = await api.get<string>('/metrics', null);
    expect(count(after.text)).toBe(count(before.text) + 1);
  });
});
