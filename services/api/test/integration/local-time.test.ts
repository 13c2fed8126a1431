/**
 * tz= and fill= over HTTP (issue 36): local days and hours against a fold of the ticks in each
 * local step, filled points marked in JSON, CSV and Arrow, and answers without them unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import { TestStack } from '@tickertape/testing';
import { testDatabase } from '@tickertape/store/testing';
import { seriesKey } from '@tickertape/tick';
import { tableFromIPC, type StructRowProxy } from 'apache-arrow';
import { parse } from 'csv-parse/sync';
import type { CandlesBody, PointsBody, WindowBody } from '../../src/response-schemas.js';
import { TOKEN, qs, startTestApi, type RunningApi } from '../support/api.js';
import { HOUR, MINUTE, at, writeTicks, type RefTick } from '../support/ticks.js';

const NOW = at('2026-04-01T00:00:00Z');
const LA = 'America/Los_Angeles';
const KOLKATA = 'Asia/Kolkata';
const la = seriesKey('speed', { sensor: 'la' });
const kolkata = seriesKey('speed', { sensor: 'in' });
/** Los Angeles' local 10 March has no ticks. */
const SILENT = { from: at('2026-03-10T07:00:00Z'), to: at('2026-03-11T07:00:00Z') };

function ticks(): RefTick[] {
  const out: RefTick[] = [];
  let offset = 0;
  let k = 0;
  const span = (series: string, sensor: string, from: number, to: number) => {
    for (let ts = from + 7_000; ts < to; ts += 9 * MINUTE + (k % 7) * MINUTE) {
      k++;
      if (series === la && ts >= SILENT.from && ts < SILENT.to) continue;
      out.push({
        series,
        metric: 'speed',
        tags: { sensor },
        ts,
        offset: offset++,
        fields: { speed: 20 + ((k * 37) % 90) },
      });
    }
  };
  span(la, 'la', at('2026-03-06T00:00:00Z'), at('2026-03-12T12:00:00Z'));
  span(kolkata, 'in', at('2026-03-06T00:00:00Z'), at('2026-03-10T00:00:00Z'));
  return out;
}

/** The reference: the ticks of a series grouped by local date, read with Intl on its own. */
function localDays(
  all: readonly RefTick[],
  series: string,
  zone: string,
  from: number,
  to: number,
) {
  const date = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const groups = new Map<string, number[]>();
  for (const tick of all)
    if (tick.series === series && tick.ts >= from && tick.ts < to) {
      const day = date.format(tick.ts);
      groups.set(day, [...(groups.get(day) ?? []), tick.fields.speed!]);
    }
  return [...groups].map(([day, values]) => ({
    day,
    n: values.length,
    sum: values.reduce((a, b) => a + b, 0),
    min: Math.min(...values),
    max: Math.max(...values),
  }));
}

describe('tz and fill on the read routes', () => {
  let stack: TestStack;
  let api: RunningApi;
  const all = ticks();

  beforeAll(async () => {
    stack = await TestStack.open('api-local-time');
    const db = testDatabase(stack);
    await writeTicks(db, all);
    api = await startTestApi(await storesOf(db), { reader: { now: () => NOW } });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  const raw = async (path: string) => {
    const res = await fetch(`${api.base}${path}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it.each([
    [
      'Los Angeles across the spring change',
      la,
      LA,
      '2026-03-06T08:00:00Z',
      '2026-03-12T07:00:00Z',
    ],
    [
      'Kolkata (a half-hour zone)',
      kolkata,
      KOLKATA,
      '2026-03-05T18:30:00Z',
      '2026-03-09T18:30:00Z',
    ],
  ])('%s: each local day is the fold of its ticks', async (_name, series, zone, from, to) => {
    const res = await api.get<PointsBody>(
      `/api/v1/points${qs(['series', series], ['field', 'speed'], ['from', from], ['to', to], ['level', 'day'], ['tz', zone])}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.tz).toBe(zone);
    const expected = localDays(all, series, zone, at(from), at(to));
    expect(
      res.body.points.map((p) => ({
        day: p.local!.slice(0, 10),
        n: p.n,
        sum: p.sum,
        min: p.min,
        max: p.max,
      })),
    ).toEqual(expected);
    for (const p of res.body.points) expect(p.local).toMatch(/T00:00:00\.000[+-]\d\d:\d\d$/);
    if (zone === LA)
      expect(res.body.points.map((p) => (p.end! - p.t) / HOUR)).toEqual([24, 24, 23, 24, 24]);
  });

  it('names each step’s UTC bounds and local time in CSV and Arrow, and marks filled rows', async () => {
    const path = `/api/v1/points${qs(['series', la], ['field', 'speed'], ['from', '2026-03-08T08:00:00Z'], ['to', '2026-03-12T07:00:00Z'], ['level', 'day'], ['tz', LA], ['fill', 'linear'])}`;
    const json = await api.get<PointsBody>(path);
    expect(json.body.fill).toBe('linear');
    const filled = json.body.points.filter((p) => p.filled);
    expect(filled).toEqual([
      expect.objectContaining({ t: SILENT.from, end: SILENT.to, n: null, sum: null, filled: true }),
    ]);
    expect(json.body.gaps).toEqual([SILENT]);

    const csv = await raw(`${path}&format=csv`);
    const records = parse<Record<string, string>>(csv.bytes.toString('utf8'), { columns: true });
    expect(Object.keys(records[0]!)).toEqual([
      'time',
      'time_ms',
      'end',
      'end_ms',
      'local_time',
      'series',
      'sensor',
      'field',
      'n',
      'sum',
      'avg',
      'min',
      'max',
      'first',
      'last',
      'variance',
      'stddev',
      'coverage_spread',
      'final',
      'filled',
    ]);
    expect(records.map((r) => [r.local_time, r.end_ms, r.n, r.filled])).toEqual(
      json.body.points.map((p) => [
        p.local,
        String(p.end),
        p.n === null ? '' : String(p.n),
        String(p.filled),
      ]),
    );

    const arrow = await raw(`${path}&format=arrow`);
    const table = tableFromIPC(arrow.bytes);
    expect(table.schema.fields.map((f) => [f.name, String(f.type)])).toEqual(
      expect.arrayContaining([
        ['end_ms', 'Timestamp<MILLISECOND, UTC>'],
        ['local_time', 'Utf8'],
        ['filled', 'Bool'],
      ]),
    );
    const rows = (table.toArray() as StructRowProxy[]).map(
      (row) => row.toJSON() as { filled: boolean },
    );
    expect(rows.map((r) => r.filled)).toEqual(json.body.points.map((p) => p.filled));
  });

  it.each(['null', 'previous', 'linear'] as const)(
    'fill=%s answers a UTC range’s missing hours, marked, and keeps its gaps',
    async (fill) => {
      const base = qs(
        ['series', la],
        ['field', 'speed'],
        ['from', '2026-03-10T05:00:00Z'],
        ['to', '2026-03-11T09:00:00Z'],
        ['level', 'hour'],
      );
      const plain = await api.get<PointsBody>(`/api/v1/points${base}`);
      const res = await api.get<PointsBody>(`/api/v1/points${base}&fill=${fill}`);
      expect(res.status).toBe(200);
      expect(res.body.gaps).toEqual(plain.body.gaps);
      expect(res.body.points.filter((p) => !p.filled)).toEqual(
        plain.body.points.map((p) => ({ ...p, filled: false })),
      );
      expect(res.body.points.filter((p) => p.filled).map((p) => p.t)).toEqual(
        Array.from({ length: 24 }, (_, i) => SILENT.from + i * HOUR),
      );
      const values = res.body.points.filter((p) => p.filled).map((p) => p.avg);
      if (fill === 'null') expect(values.every((v) => v === null)).toBe(true);
      else expect(values.every((v) => typeof v === 'number')).toBe(true);
    },
  );

  it('without tz or fill, the answer is what it was: no zone, no end, no filled column', async () => {
    const path = `/api/v1/points${qs(['series', la], ['field', 'speed'], ['from', '2026-03-08T00:00:00Z'], ['to', '2026-03-09T00:00:00Z'], ['level', 'hour'])}`;
    const res = await api.get<PointsBody>(path);
    expect(Object.keys(res.body)).toEqual([
      'series',
      'field',
      'fromMs',
      'toMs',
      'resolution',
      'gaps',
      'examined',
      'points',
    ]);
    expect(Object.keys(res.body.points[0]!)).toEqual([
      't',
      'n',
      'sum',
      'min',
      'max',
      'open',
      'close',
      'avg',
      'variance',
      'stddev',
      'coverage',
      'final',
    ]);
    const csv = await raw(`${path}&format=csv`);
    expect(csv.bytes.toString('utf8').split('\r\n')[0]).toBe(
      'time,time_ms,series,sensor,field,n,sum,avg,min,max,first,last,variance,stddev,coverage_spread,final',
    );
  });

  it('candles in local days carry each day’s end and local time', async () => {
    const res = await api.get<CandlesBody>(
      `/api/v1/candles${qs(['series', kolkata], ['field', 'speed'], ['from', '2026-03-06T18:30:00Z'], ['to', '2026-03-08T18:30:00Z'], ['maxPoints', '3'], ['tz', KOLKATA])}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.candles.map((c) => [c.local, c.end! - c.t])).toEqual([
      ['2026-03-07T00:00:00.000+05:30', 24 * HOUR],
      ['2026-03-08T00:00:00.000+05:30', 24 * HOUR],
    ]);
  });

  it('the window names the zone and its bounds in local time', async () => {
    const res = await api.get<WindowBody>(
      `/api/v1/window${qs(['series', la], ['field', 'speed'], ['from', '2026-03-08T08:00:00Z'], ['to', '2026-03-09T07:00:00Z'], ['tz', LA])}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tz: LA,
      local: { from: '2026-03-08T00:00:00.000-08:00', to: '2026-03-09T00:00:00.000-07:00' },
      fromMs: at('2026-03-08T08:00:00Z'),
      toMs: at('2026-03-09T07:00:00Z'),
    });
    const [day] = localDays(all, la, LA, at('2026-03-08T08:00:00Z'), at('2026-03-09T07:00:00Z'));
    expect(res.body.rows[0]).toMatchObject({ n: day!.n, sum: day!.sum });
  });

  it('reads from and to without an offset as the zone’s wall time, and as UTC without tz', async () => {
    const window = (...extra: [string, string][]) =>
      api.get<WindowBody>(
        `/api/v1/window${qs(['series', la], ['field', 'speed'], ['from', '2026-03-08'], ['to', '2026-03-09T00:00'], ...extra)}`,
      );
    const local = await window(['tz', LA]);
    expect(local.status).toBe(200);
    expect([local.body.fromMs, local.body.toMs]).toEqual([
      at('2026-03-08T08:00:00Z'),
      at('2026-03-09T07:00:00Z'),
    ]);
    const utc = await window();
    expect([utc.body.fromMs, utc.body.toMs]).toEqual([
      at('2026-03-08T00:00:00Z'),
      at('2026-03-09T00:00:00Z'),
    ]);
    const days = await api.get<PointsBody>(
      `/api/v1/points${qs(['series', kolkata], ['field', 'speed'], ['from', '2026-03-07'], ['to', '2026-03-09'], ['level', 'day'], ['tz', KOLKATA])}`,
    );
    expect(days.body.points.map((p) => p.local)).toEqual([
      '2026-03-07T00:00:00.000+05:30',
      '2026-03-08T00:00:00.000+05:30',
    ]);
  });

  it.each([
    ['/api/v1/points', qs(['series', la], ['field', 'speed'], ['from', '0'], ['tz', 'Mars/Base'])],
    ['/api/v1/candles', qs(['series', la], ['field', 'speed'], ['from', '0'], ['tz', 'Mars/Base'])],
    ['/api/v1/window', qs(['series', la], ['field', 'speed'], ['from', '0'], ['tz', 'Mars/Base'])],
    ['/api/v1/points', qs(['series', la], ['field', 'speed'], ['from', '0'], ['fill', 'zero'])],
  ])('%s refuses a bad tz or fill with a 400 naming it', async (route, query) => {
    const res = await api.get<{ error: string; message: string }>(`${route}${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.message).toMatch(
      query.includes('fill') ? /^fill: / : /^tz: "Mars\/Base" is not a time zone/,
    );
  });
});
