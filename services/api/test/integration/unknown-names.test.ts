import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import { TestStack } from '@tickertape/testing';
import type { UnknownBody } from '../../src/api-error.js';
import type { PointsBody } from '../../src/response-schemas.js';
import { qs, startTestApi, type RunningApi } from '../support/api.js';
import { dataset, writeTicks } from '../support/ticks.js';

const data = dataset();
const S1 = 'speed|road=a1,sensor=s1';
const RANGE: [string, string][] = [
  ['from', '2026-01-01T00:00:00Z'],
  ['to', '2026-01-01T01:00:00Z'],
];
const points = (series: string, field: string, range = RANGE) =>
  `/api/v1/points${qs(['series', series], ['field', field], ...range)}`;

describe('a misspelt series or field is named, not answered as missing data (issue 38)', () => {
  let stack: TestStack;
  let api: RunningApi;

  beforeAll(async () => {
    stack = await TestStack.open('api-unknown-names');
    const db = testDatabase(stack);
    await writeTicks(db, data.ticks);
    api = await startTestApi(await storesOf(db));
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it('answers 404 naming a misspelt field, with the field the series holds', async () => {
    const res = await api.get<UnknownBody>(points(S1, 'sped'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: 'QUERY_UNKNOWN_NAME',
      message: 'unknown field "sped"; did you mean "speed"?',
      unknown: {
        series: [],
        fields: ['sped'],
        metrics: [],
        tags: [],
        suggestions: { sped: ['speed'] },
      },
    });
  });

  it('answers the 404 in JSON when CSV was asked', async () => {
    const res = await api.get<UnknownBody>(`${points(S1, 'sped')}&format=csv`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.unknown.fields).toEqual(['sped']);
  });

  it.each([
    ['a misspelt metric', 'sped|road=a1,sensor=s1'],
    ['a misspelt tag name', 'speed|road=a1,senzor=s1'],
  ])('answers 404 naming %s, nearest known series first', async (_case, series) => {
    const res = await api.get<UnknownBody>(points(series, 'speed'));
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('QUERY_UNKNOWN_NAME');
    expect(res.body.message).toContain(`unknown series "${series}"; did you mean "${S1}"`);
    expect(res.body.unknown.series).toEqual([series]);
    expect(res.body.unknown.suggestions[series]?.[0]).toBe(S1);
  });

  it('names a misspelt field on candles and window too', async () => {
    const candles = await api.get<UnknownBody>(
      `/api/v1/candles${qs(['series', S1], ['field', 'speeed'], ...RANGE)}`,
    );
    expect(candles.status).toBe(404);
    expect(candles.body.unknown.suggestions).toEqual({ speeed: ['speed'] });
    const window = await api.get<UnknownBody>(
      `/api/v1/window${qs(['series', S1], ['field', 'cuont'], ...RANGE)}`,
    );
    expect(window.status).toBe(404);
    expect(window.body.unknown).toEqual({
      series: [],
      fields: ['cuont'],
      metrics: [],
      tags: [],
      suggestions: { cuont: ['count'] },
    });
  });

  const byMetric = (metric: string, tags: string[], field = 'speed', range = RANGE) =>
    `/api/v1/window${qs(['metric', metric], ...tags.map((t): [string, string] => ['tag', t]), ['field', field], ...range)}`;

  it.each([
    [
      'a misspelt metric',
      byMetric('sped', []),
      { metrics: ['sped'], tags: [] },
      { sped: ['speed'] },
    ],
    [
      'a misspelt tag name',
      byMetric('speed', ['senzor:s1']),
      { metrics: [], tags: ['senzor'] },
      { senzor: ['sensor'] },
    ],
    [
      'a tag value no series carries',
      byMetric('speed', ['sensor:s11']),
      { metrics: [], tags: ['sensor=s11'] },
      { 'sensor=s11': ['sensor=s1', 'sensor=s2', 'sensor=s3'] },
    ],
  ])('a window by metric names %s', async (_case, url, names, suggestions) => {
    const res = await api.get<UnknownBody>(url);
    expect(res.status).toBe(404);
    expect(res.body.unknown).toEqual({ series: [], fields: [], ...names, suggestions });
  });

  it('a window by metric names a misspelt field of the series it matched', async () => {
    const res = await api.get<UnknownBody>(byMetric('speed', ['sensor:s1'], 'sped'));
    expect(res.status).toBe(404);
    expect(res.body.unknown.fields).toEqual(['sped']);
  });

  it('a window by metric over a quiet range of known tags answers no rows', async () => {
    const quiet: [string, string][] = [
      ['from', '2025-06-01T00:00:00Z'],
      ['to', '2025-06-01T01:00:00Z'],
    ];
    const res = await api.get<{ rows: unknown[] }>(
      byMetric('speed', ['sensor:s1'], 'speed', quiet),
    );
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([]);
  });

  it('still answers a known series quiet in the range with its gap', async () => {
    const quiet: [string, string][] = [
      ['from', '2025-06-01T00:00:00Z'],
      ['to', '2025-06-01T01:00:00Z'],
    ];
    const res = await api.get<PointsBody>(points(S1, 'speed', quiet));
    expect(res.status).toBe(200);
    expect(res.body.points).toEqual([]);
    expect(res.body.gaps).toEqual([
      { from: Date.parse('2025-06-01T00:00:00Z'), to: Date.parse('2025-06-01T01:00:00Z') },
    ]);
  });
});
