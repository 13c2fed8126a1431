/**
 * The read routes' `from`, `to` and `tag` as the CLI reads them (issue 38; docs/querying.md,
 * "Times and tags"), on the real stack: relative times from the API's clock answer what their
 * absolute spelling answers but are never kept as final; `to` defaults to now and `from` to an
 * hour before `to` on every range read; `key=value` and `key:value` tags select alike; a bad time is a 400 naming
 * the parameter and the accepted forms on every route. The Prometheus routes keep Prometheus'
 * own syntax. (CLI and API side by side: services/cli/test/integration/time-syntax-same-as-api.)
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TIME_FORMS } from '@tickertape/query';
import { TestStack } from '@tickertape/testing';
import { qs, startTestApi, type RunningApi } from '../support/api.js';
import { HOUR, MINUTE, NOW, dataset, storedTicks } from '../support/ticks.js';

const data = dataset(13);
const [s1, s2] = data.sensors as [string, string];
const IMMUTABLE = 'private, max-age=86400, immutable';
type Query = [string, string | number][];

describe('from, to and tag as the CLI reads them', () => {
  let stack: TestStack;
  let api: RunningApi;

  beforeAll(async () => {
    stack = await TestStack.open('api-time-syntax');
    const { stores } = await storedTicks(stack, data.ticks);
    api = await startTestApi(stores, { reader: { now: () => NOW } });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  const get = (route: string, ...query: Query) => api.get(`/api/v1/${route}${qs(...query)}`);
  const points: Query = [
    ['series', s1],
    ['field', 'speed'],
    ['maxPoints', 40],
  ];

  it.each<[string, Query, Query]>([
    [
      'points',
      [...points, ['from', '-2h'], ['to', 'now-1h30m']],
      [...points, ['from', NOW - 2 * HOUR], ['to', NOW - 90 * MINUTE]],
    ],
    [
      'candles',
      [...points, ['from', 'now-2h'], ['to', '-1h45m']],
      [...points, ['from', NOW - 2 * HOUR], ['to', NOW - 105 * MINUTE]],
    ],
    [
      'window',
      [
        ['series', s1],
        ['series', s2],
        ['field', 'speed'],
        ['from', '-1h45m'],
        ['to', '-1h35m'],
      ],
      [
        ['series', s1],
        ['series', s2],
        ['field', 'speed'],
        ['from', NOW - 105 * MINUTE],
        ['to', NOW - 95 * MINUTE],
      ],
    ],
  ])(
    '%s: a relative range answers as its absolute spelling, never kept as final',
    async (route, relative, absolute) => {
      const moving = await get(route, ...relative);
      const fixed = await get(route, ...absolute);
      expect([moving.status, fixed.status]).toEqual([200, 200]);
      expect(moving.text).toBe(fixed.text);
      expect(fixed.headers.get('cache-control')).toBe(IMMUTABLE);
      // Final buckets, but the URL names other buckets a minute from now.
      expect(moving.headers.get('cache-control')).toMatch(
        /^private, max-age=\d{1,2}, stale-while-revalidate=\d+$/,
      );
    },
  );

  it.each<[string, Query]>([
    ['points', points],
    ['candles', points],
    [
      'window',
      [
        ['series', s1],
        ['field', 'speed'],
      ],
    ],
  ])('%s: to defaults to now, from to an hour before to', async (route, query) => {
    const defaulted = await get(route, ...query);
    expect(defaulted.status).toBe(200);
    expect(defaulted.text).toBe((await get(route, ...query, ['from', '-1h'], ['to', 'now'])).text);
    expect(defaulted.text).toBe(
      (await get(route, ...query, ['from', NOW - HOUR], ['to', NOW])).text,
    );
    expect(defaulted.headers.get('cache-control')).not.toBe(IMMUTABLE);
    // `to` alone names the hour before it: a fixed range, final here.
    const to = NOW - 2 * HOUR;
    const hourBefore = await get(route, ...query, ['to', to]);
    expect(hourBefore.text).toBe(
      (await get(route, ...query, ['from', to - HOUR], ['to', to])).text,
    );
    expect(hourBefore.headers.get('cache-control')).toBe(IMMUTABLE);
  });

  it('raw: from and to default too; series discovery looks a week back', async () => {
    expect((await get('raw', ['series', s1], ['field', 'speed'])).status).toBe(200);
    const listed = await get('series', ['metric', 'speed']);
    expect(listed.status).toBe(200);
    expect((listed.body as { series: unknown[] }).series).toHaveLength(3);
    expect(listed.text).toBe((await get('series', ['metric', 'speed'], ['from', '-7d'])).text);
  });

  it('reads tags as key=value or key:value alike', async () => {
    const canonical = await get('series', ['metric', 'speed'], ['tag', 'sensor=s2']);
    expect((canonical.body as { series: unknown[] }).series).toHaveLength(1);
    expect((await get('series', ['metric', 'speed'], ['tag', 'sensor:s2'])).text).toBe(
      canonical.text,
    );
    const window = (tag: string) =>
      get('window', ['metric', 'speed'], ['tag', tag], ['tag', 'road=a1'], ['field', 'speed']);
    const byTag = await window('sensor:s1');
    expect(byTag.status).toBe(200);
    expect((byTag.body as { rows: unknown[] }).rows).toHaveLength(1);
    expect((await window('sensor=s1')).text).toBe(byTag.text);
  });

  const range: Record<string, Query> = {
    points,
    candles: points,
    window: [
      ['series', s1],
      ['field', 'speed'],
    ],
    series: [['metric', 'speed']],
    raw: [['series', s1]],
  };
  it.each(
    Object.keys(range).flatMap((route) =>
      (['from', 'to'] as const).flatMap((name) =>
        ['yesterday', '15m', 'now - 1h', '2026-11-21 10:00'].map(
          (text): [string, string, string] => [route, name, text],
        ),
      ),
    ),
  )('%s: %s=%j is a 400 naming it and the accepted forms', async (route, name, text) => {
    const answer = await get(route, ...range[route]!, [name, text]);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'invalid_request',
      message: `${name}: ${JSON.stringify(text)} is not a time; give ${TIME_FORMS}`,
    });
  });

  it("keeps Prometheus' own syntax on the Prometheus routes: no relative times there", async () => {
    const answer = await api.get(`/prometheus/api/v1/query${qs(['query', 'up'], ['time', '-1h'])}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 'error', errorType: 'bad_data' });
  });
});
