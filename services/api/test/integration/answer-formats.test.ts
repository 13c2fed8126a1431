/**
 * Every read route in JSON, CSV and Arrow on the real stack: the same rows in each (the CSV read
 * back with csv-parse, the Arrow stream with apache-arrow's reader), `format=` winning over
 * Accept, an ETag per representation and 304 per format, `Vary: Accept` where Accept chose,
 * kept answers never crossing formats, and the media types in the OpenAPI document.
 */
import { storesOf } from '@tickertape/store';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import { tableFromIPC, type StructRowProxy } from 'apache-arrow';
import { parse } from 'csv-parse/sync';
import type {
  CandlesBody,
  PointsBody,
  RawBody,
  SeriesBody,
  WindowBody,
} from '../../src/response-schemas.js';
import {
  ANALYST_FROM,
  ANALYST_NOW,
  ANALYST_SERIES,
  ANALYST_TO,
  writeAnalystData,
} from '../support/analyst-data.js';
import { TOKEN, qs, startTestApi, type RunningApi } from '../support/api.js';
import { testDatabase } from '@tickertape/store/testing';

const CSV = 'text/csv';
const ARROW = 'application/vnd.apache.arrow.stream';
const [s1, , odd] = ANALYST_SERIES as [string, string, string];
const iso = (ms: number) => new Date(ms).toISOString();

type Cell = string | number | boolean | null;
type Row = Record<string, Cell>;

interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** The stats columns of a row asked without quantiles, of a field no policy weights. */
const statsCells = (row: {
  variance: number | null;
  stddev: number | null;
  coverage: { spread: number };
}) => ({
  variance: row.variance,
  stddev: row.stddev,
  coverage_spread: row.coverage.spread,
});

const STAT_COLUMNS = new Set(['variance', 'stddev', 'coverage_spread']);

/** The rows a route's JSON answer stands for, column by column as docs/analysts.md lists them. */
const EXPECTED: Record<string, (body: never) => Row[]> = {
  points: (body: PointsBody) =>
    body.points.map((p) => ({
      time: iso(p.t),
      time_ms: p.t,
      series: body.series,
      road: 'a1',
      sensor: 's1',
      field: body.field,
      n: p.n,
      sum: p.sum,
      avg: p.avg,
      min: p.min,
      max: p.max,
      first: p.open,
      last: p.close,
      ...statsCells(p),
      final: p.final,
    })),
  candles: (body: CandlesBody) =>
    body.candles.map((c) => ({
      time: iso(c.t),
      time_ms: c.t,
      series: body.series,
      lane: '2',
      road: 'x,"y"',
      field: body.field,
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
      volume: c.volume,
      ...statsCells(c),
      final: c.final,
    })),
  window: (body: WindowBody) =>
    body.rows.map((row) => ({
      time: iso(body.fromMs),
      time_ms: body.fromMs,
      end: iso(body.toMs),
      end_ms: body.toMs,
      series: row.series,
      lane: row.series === odd ? '2' : null,
      road: row.series === odd ? 'x,"y"' : 'a1',
      sensor: row.series === odd ? null : /sensor=(\w+)/.exec(row.series)![1]!,
      field: body.field,
      n: row.n,
      sum: row.n === 0 ? null : row.sum,
      avg: row.avg,
      min: row.min,
      max: row.max,
      first: row.first?.v ?? null,
      first_time: row.first ? iso(row.first.t) : null,
      first_time_ms: row.first?.t ?? null,
      last: row.last?.v ?? null,
      last_time: row.last ? iso(row.last.t) : null,
      last_time_ms: row.last?.t ?? null,
      ...statsCells(row),
      final: row.final,
    })),
  raw: (body: RawBody) =>
    [
      ...(body.before ? [{ ...body.before, position: 'before' }] : []),
      ...body.points.map((p) => ({ ...p, position: 'in' })),
      ...(body.after ? [{ ...body.after, position: 'after' }] : []),
    ].map((p) => ({
      time: iso(p.t),
      time_ms: p.t,
      series: body.series,
      road: 'a1',
      sensor: 's1',
      position: p.position,
      count: p.v.count ?? null,
      speed: p.v.speed ?? null,
    })),
  series: (body: SeriesBody) =>
    body.series.map((s) => ({
      series: s.series,
      metric: s.metric,
      lane: s.tags.lane ?? null,
      road: s.tags.road ?? null,
      sensor: s.tags.sensor ?? null,
      fields: s.fields.join(','),
      last_slot: iso(s.lastSlotMs),
      last_slot_ms: s.lastSlotMs,
    })),
};

/** A CSV cell as the API writes a value: numbers as JavaScript prints them, null empty. */
const csvText = (cell: Cell) => (cell === null ? '' : String(cell));

const ROUTES: [string, string][] = [
  [
    'points',
    `/api/v1/points${qs(['series', s1], ['field', 'speed'], ['from', ANALYST_FROM], ['to', ANALYST_TO], ['maxPoints', 60])}`,
  ],
  [
    'candles',
    `/api/v1/candles${qs(['series', odd], ['field', 'speed'], ['from', ANALYST_FROM], ['to', ANALYST_TO], ['maxPoints', 10])}`,
  ],
  [
    'window',
    `/api/v1/window${qs(['metric', 'speed'], ['field', 'speed'], ['from', '2026-01-01T00:55Z'], ['to', '2026-01-01T01:05Z'])}`,
  ],
  [
    'raw',
    `/api/v1/raw${qs(['series', s1], ['from', '2026-01-01T00:59Z'], ['to', '2026-01-01T01:01Z'])}`,
  ],
  ['series', `/api/v1/series${qs(['metric', 'speed'], ['from', ANALYST_FROM])}`],
];

describe('CSV and Arrow answers of the read routes', () => {
  let stack: TestStack;
  let api: RunningApi;

  const fetchRaw = async (path: string, headers: Record<string, string> = {}): Promise<Fetched> => {
    const response = await fetch(`${api.base}${path}`, {
      headers: { Authorization: `Bearer ${TOKEN}`, ...headers },
    });
    return {
      status: response.status,
      headers: response.headers,
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  };

  beforeAll(async () => {
    stack = await TestStack.open('api-formats');
    const db = testDatabase(stack);
    await writeAnalystData(db);
    api = await startTestApi(await storesOf(db), { reader: { now: () => ANALYST_NOW } });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it.each(ROUTES)('%s: the same rows as JSON, CSV and Arrow', async (route, path) => {
    const json = await api.get<never>(path);
    expect(json.status).toBe(200);
    const rows = EXPECTED[route]!(json.body);
    expect(rows.length).toBeGreaterThan(1);
    const columns = Object.keys(rows[0]!);

    for (const [asked, headers] of [
      [`${path}&format=csv`, {}],
      [path, { Accept: CSV }],
    ] as const) {
      const csv = await fetchRaw(asked, headers);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
      const text = csv.bytes.toString('utf8');
      expect(text.endsWith('\r\n')).toBe(true);
      const records = parse<Record<string, string>>(text, { columns: true });
      expect(Object.keys(records[0]!)).toEqual(columns);
      expect(records).toEqual(
        rows.map((row) => Object.fromEntries(columns.map((c) => [c, csvText(row[c]!)]))),
      );
    }

    for (const [asked, headers] of [
      [`${path}&format=arrow`, {}],
      [path, { Accept: ARROW }],
    ] as const) {
      const arrow = await fetchRaw(asked, headers);
      expect(arrow.status).toBe(200);
      expect(arrow.headers.get('content-type')).toBe(ARROW);
      const table = tableFromIPC(arrow.bytes);
      expect(table.schema.fields.map((f) => f.name)).toEqual(columns);
      for (const field of table.schema.fields)
        expect(String(field.type)).toBe(
          field.name.endsWith('_ms')
            ? 'Timestamp<MILLISECOND, UTC>'
            : // A stat is a number column even where no row has it (buckets without its part).
              STAT_COLUMNS.has(field.name) ||
                typeof rows.find((r) => r[field.name] !== null)?.[field.name] === 'number'
              ? 'Float64'
              : typeof rows.find((r) => r[field.name] !== null)?.[field.name] === 'boolean'
                ? 'Bool'
                : 'Utf8',
        );
      const read = (table.toArray() as StructRowProxy[]).map((row) => ({ ...row.toJSON() }));
      expect(read).toEqual(rows);
    }
  });

  it('quotes a tag value holding a comma and quotes', async () => {
    const csv = await fetchRaw(ROUTES[1]![1], { Accept: CSV });
    const [header, first] = csv.bytes.toString('utf8').split('\r\n');
    expect(header).toBe(
      'time,time_ms,series,lane,road,field,open,high,low,close,volume,variance,stddev,coverage_spread,final',
    );
    expect(first).toContain(`,"speed|lane=2,road=x\\,""y""",2,"x,""y""",speed,`);
  });

  it('tags each representation and answers 304 per format; Vary: Accept where Accept chose, Authorization always', async () => {
    for (const [, path] of [ROUTES[2]!, ROUTES[4]!]) {
      const answers = await Promise.all([
        fetchRaw(path),
        fetchRaw(path, { Accept: CSV }),
        fetchRaw(path, { Accept: ARROW }),
      ]);
      const etags = answers.map((a) => a.headers.get('etag')!);
      expect(new Set(etags).size).toBe(3);
      for (const answer of answers)
        expect(answer.headers.get('vary')).toBe('Accept, Authorization');
      const [, csvTag] = etags as [string, string, string];
      const again = await fetchRaw(path, { Accept: CSV, 'If-None-Match': csvTag });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(csvTag);
      expect(again.headers.get('vary')).toBe('Accept, Authorization');
      // The CSV's tag does not match the JSON or the Arrow answer.
      expect((await fetchRaw(path, { 'If-None-Match': csvTag })).status).toBe(200);
      expect((await fetchRaw(path, { Accept: ARROW, 'If-None-Match': csvTag })).status).toBe(200);
      // format= decides alone: no Vary: Accept, the same bytes and tag as Accept's CSV.
      const byParam = await fetchRaw(`${path}&format=csv`, { Accept: ARROW });
      expect(byParam.headers.get('vary')).toBe('Authorization');
      expect(byParam.bytes.equals(answers[1].bytes)).toBe(true);
      expect(byParam.headers.get('etag')).toBe(csvTag);
    }
  });

  it('keeps a kept answer per format: a final window asked as JSON, then CSV, then JSON', async () => {
    const path = `/api/v1/window${qs(['series', s1], ['field', 'speed'], ['from', '2026-01-01T00:40Z'], ['to', '2026-01-01T00:50Z'])}`;
    const json = await api.get<WindowBody>(path);
    expect(json.headers.get('cache-control')).toBe('private, max-age=86400, immutable');
    const csv = await fetchRaw(path, { Accept: CSV });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('cache-control')).toBe('private, max-age=86400, immutable');
    const again = await api.get<WindowBody>(path);
    expect(again.text).toBe(json.text);
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('refuses an unknown format with the usual error body', async () => {
    for (const format of ['format=xlsx', 'format=', 'format=csv&format=json']) {
      const refused = await api.get(`${ROUTES[0]![1]}&${format}`, undefined, { Accept: CSV });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'invalid_request',
        message: 'format: must be csv, arrow or json, given once',
      });
    }
  });

  it('lists the three media types of every read route in the OpenAPI document', async () => {
    const doc = await api.get<{
      paths: Record<string, { get: { responses: Record<string, { content: object }> } }>;
    }>('/openapi.json', null);
    for (const route of ['series', 'points', 'candles', 'window', 'raw']) {
      const content = doc.body.paths[`/api/v1/${route}`]!.get.responses['200']!.content;
      expect(Object.keys(content)).toEqual(['application/json', CSV, ARROW]);
      expect(content).toMatchObject({
        'application/json': { schema: { type: 'object' } },
        [CSV]: { schema: { type: 'string' } },
        [ARROW]: { schema: { type: 'string', format: 'binary' } },
      });
    }
  });
});
