/**
 * Scoped tokens on the real stack (issue 37, item 8): two metrics written through the real
 * write paths (rollups at every level, raw segments), a token limited to one by prefix, one
 * limited to the other by name, and a plain token. Each /api/v1 route and each Prometheus route,
 * discovery and regex selectors included, shows a scoped token only its metric; the plain
 * token sees both; answers kept for one token never reach another.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SegmentWriter } from '@tickertape/segments';
import { storesOf } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import { TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import { DEFAULT_CACHING } from '../../src/app.js';
import { MetricScope } from '../../src/token-scope.js';
import { qs, startTestApi, TOKEN, type RunningApi } from '../support/api.js';
import { MINUTE, SECOND, at, foldInputs, writeTicks, type RefTick } from '../support/ticks.js';

const START = at('2026-03-02T09:00:00Z');
const END = at('2026-03-02T10:00:00Z');
const NOW = at('2026-03-02T10:30:00Z');

/** Limited by prefix to `fleet.*`. */
const FLEET = 'fleet-scoped-token-0123456789';
/** Limited by name to `billing`. */
const BILLING = 'billing-scoped-token-0123456789';

const cars = (road: string) => seriesKey('fleet.cars', { road });
const BILL = seriesKey('billing', { account: 'acme' });
const PROM_CARS = 'fleet_cars_speed';
const PROM_BILL = 'billing_amount';

function ticks(): RefTick[] {
  const out: RefTick[] = [];
  let offset = 0;
  for (let ts = START; ts < END; ts += 10 * SECOND) {
    for (const road of ['r1', 'r2'])
      out.push({
        series: cars(road),
        metric: 'fleet.cars',
        tags: { road },
        ts,
        offset: offset++,
        fields: { speed: 50 + ((ts / SECOND) % 7) },
      });
    out.push({
      series: BILL,
      metric: 'billing',
      tags: { account: 'acme' },
      ts,
      offset: offset++,
      fields: { amount: 3 },
    });
  }
  return out;
}

interface PromBody<T = unknown> {
  status: string;
  data: T;
}
type Vector = { result: { metric: Record<string, string> }[] };
type Matrix = { resultType: 'matrix'; result: { metric: Record<string, string> }[] };

describe('scoped tokens', () => {
  let stack: TestStack;
  let api: RunningApi;

  beforeAll(async () => {
    stack = await TestStack.open('api-scoped-tokens');
    const db = testDatabase(stack);
    const stores = await storesOf(db);
    const data = ticks();
    await writeTicks(db, data);
    const segments = new SegmentWriter(stores.segments, {
      maxPoints: 1000,
      writeOnlyOnChange: new Set(),
    });
    await segments.apply(foldInputs(data));
    await stores.rollups.changeMetricPolicy(
      { kind: 'sketch', metrics: ['fleet.cars', 'billing'], on: true },
      Date.now(),
    );
    await stores.rollups.advanceWatermarks(
      { minute: END, hour: END, day: at('2026-03-02T00:00:00Z') },
      NOW,
    );
    api = await startTestApi(stores, {
      reader: { now: () => NOW },
      tokens: [
        TOKEN,
        { token: FLEET, scope: MetricScope.of([], ['fleet.']) },
        { token: BILLING, scope: MetricScope.of(['billing'], []) },
      ],
      // As env.ts requires with scoped tokens: no shared cache keeps an answer.
      caching: { ...DEFAULT_CACHING, scope: 'private' },
    });
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  const range = { from: new Date(START).toISOString(), to: new Date(END).toISOString() };
  const listed = async (token: string, path: string) => {
    const res = await api.get<{ series: { series: string }[] }>(path, token);
    expect(res.status).toBe(200);
    return res.body.series.map((s) => s.series).sort();
  };

  describe('the /api/v1 routes', () => {
    const seriesPath = `/api/v1/series${qs(['from', range.from], ['to', range.to])}`;

    it('/series lists only the scope’s series, and the plain token’s all', async () => {
      expect(await listed(FLEET, seriesPath)).toEqual([cars('r1'), cars('r2')]);
      expect(await listed(BILLING, seriesPath)).toEqual([BILL]);
      expect(await listed(TOKEN, seriesPath)).toEqual([BILL, cars('r1'), cars('r2')].sort());
    });

    it('/series stops at limit across the scope’s metrics and says it was cut', async () => {
      const res = await api.get<{ series: unknown[]; truncated: boolean }>(
        `/api/v1/series${qs(['from', range.from], ['to', range.to], ['limit', 1])}`,
        FLEET,
      );
      expect(res.body.series).toHaveLength(1);
      expect(res.body.truncated).toBe(true);
    });

    it('/series?metric= outside the scope is a 403 naming the metric, inside a 200', async () => {
      const refused = await api.get<{ error: string; message: string }>(
        `/api/v1/series${qs(['metric', 'billing'], ['from', range.from], ['to', range.to])}`,
        FLEET,
      );
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        error: 'forbidden',
        message: 'this token\'s scope does not include metric "billing"',
      });
      expect(
        await listed(
          FLEET,
          `/api/v1/series${qs(['metric', 'fleet.cars'], ['from', range.from], ['to', range.to])}`,
        ),
      ).toEqual([cars('r1'), cars('r2')]);
    });

    // Each read that names a series: the other scope's series is refused, its own answered.
    it.each<[string, (series: string, field: string) => string]>([
      [
        'points',
        (s, f) =>
          `/api/v1/points${qs(['series', s], ['field', f], ['from', range.from], ['to', range.to])}`,
      ],
      [
        'candles',
        (s, f) =>
          `/api/v1/candles${qs(['series', s], ['field', f], ['from', range.from], ['to', range.to])}`,
      ],
      [
        'window',
        (s, f) =>
          `/api/v1/window${qs(['series', s], ['field', f], ['from', range.from], ['to', range.to])}`,
      ],
      [
        'window by metric',
        (s, f) =>
          `/api/v1/window${qs(['metric', s === BILL ? 'billing' : 'fleet.cars'], ['field', f], ['from', range.from], ['to', range.to])}`,
      ],
      [
        'raw',
        (s, f) =>
          `/api/v1/raw${qs(['series', s], ['field', f], ['from', range.from], ['to', range.to])}`,
      ],
      ['status', (s) => `/api/v1/status${qs(['series', s])}`],
      [
        'CSV points',
        (s, f) =>
          `/api/v1/points${qs(['series', s], ['field', f], ['from', range.from], ['to', range.to], ['format', 'csv'])}`,
      ],
    ])('/%s answers a scope’s own series and refuses the other’s (403)', async (_route, path) => {
      const fleet = path(cars('r1'), 'speed');
      const billing = path(BILL, 'amount');
      expect((await api.get(fleet, FLEET)).status).toBe(200);
      expect((await api.get(billing, BILLING)).status).toBe(200);
      expect((await api.get(fleet, TOKEN)).status).toBe(200);
      expect((await api.get(billing, TOKEN)).status).toBe(200);
      const refused = await api.get<{ error: string }>(billing, FLEET);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('forbidden');
      expect((await api.get(fleet, BILLING)).status).toBe(403);
    });

    it('/window refuses a list with any series outside the scope', async () => {
      const res = await api.get(
        `/api/v1/window${qs(['series', cars('r1')], ['series', BILL], ['field', 'speed'], ['from', range.from], ['to', range.to])}`,
        FLEET,
      );
      expect(res.status).toBe(403);
    });

    it('/levels names only the scope’s metrics in the level policy', async () => {
      type Levels = { sketches: string[] };
      expect((await api.get<Levels>('/api/v1/levels', FLEET)).body.sketches).toEqual([
        'fleet.cars',
      ]);
      expect((await api.get<Levels>('/api/v1/levels', BILLING)).body.sketches).toEqual(['billing']);
      expect((await api.get<Levels>('/api/v1/levels', TOKEN)).body.sketches.sort()).toEqual([
        'billing',
        'fleet.cars',
      ]);
    });

    it('a kept answer never reaches another scope, nor does its ETag match', async () => {
      // A listing: the plain token's ETag sent by a scoped token gets the scope's own list.
      const full = await api.get(seriesPath, TOKEN);
      const fleet = await api.get<{ series: { series: string }[] }>(seriesPath, FLEET, {
        'if-none-match': full.headers.get('etag')!,
      });
      expect(fleet.status).toBe(200);
      expect(fleet.body.series.map((s) => s.series).sort()).toEqual([cars('r1'), cars('r2')]);
      expect(fleet.headers.get('etag')).not.toBe(full.headers.get('etag'));
      // A kept (final) window: kept per scope, each answered and revalidated in its own.
      const path = `/api/v1/window${qs(['series', cars('r1')], ['field', 'speed'], ['from', range.from], ['to', range.to])}`;
      const kept = await api.get(path, TOKEN);
      expect(kept.headers.get('cache-control')).toMatch(/^private, /);
      const scoped = await api.get(path, FLEET);
      expect(scoped.status).toBe(200);
      expect(scoped.text).toBe(kept.text);
      expect((await api.get(path, BILLING)).status).toBe(403);
      const etag = { 'if-none-match': kept.headers.get('etag')! };
      expect((await api.get(path, BILLING, etag)).status).toBe(403);
      expect((await api.get(path, FLEET, etag)).status).toBe(304);
    });
  });

  describe('the Prometheus API', () => {
    const prom = <T>(path: string, token: string, params: [string, string][] = []) =>
      api.get<PromBody<T>>(`/prometheus/api/v1${path}${params.length ? qs(...params) : ''}`, token);
    const t = String((START + 30 * MINUTE) / 1000);
    const names = (result: { metric: Record<string, string> }[]) =>
      [...new Set(result.map((r) => r.metric.__name__ ?? '?'))].sort();

    it.each([
      ['{__name__=~".+"}'],
      ['{__name__=~".*",__name__!=""}'],
      ['{__name__!~"fleet.*"}'],
      ['{road=~"r.+"}'],
    ])('an instant query %s sees only the scope’s names', async (query) => {
      const byToken = async (token: string) =>
        names(
          (
            await prom<Vector>('/query', token, [
              ['query', query],
              ['time', t],
            ])
          ).body.data.result,
        );
      const fleet = await byToken(FLEET);
      const billing = await byToken(BILLING);
      const full = await byToken(TOKEN);
      expect(fleet.every((n) => n === PROM_CARS)).toBe(true);
      expect(billing.every((n) => n === PROM_BILL)).toBe(true);
      expect(full.every((n) => n === PROM_CARS || n === PROM_BILL)).toBe(true);
      if (query === '{__name__=~".+"}') {
        expect(fleet).toEqual([PROM_CARS]);
        expect(billing).toEqual([PROM_BILL]);
        expect(full).toEqual([PROM_BILL, PROM_CARS]);
      }
    });

    it('a selector naming a metric outside the scope reads nothing, as a name without data', async () => {
      const outside = await prom<Vector>('/query', FLEET, [
        ['query', PROM_BILL],
        ['time', t],
      ]);
      expect(outside.status).toBe(200);
      expect(outside.body).toEqual({
        status: 'success',
        data: { resultType: 'vector', result: [] },
      });
      const counted = await prom<Vector>('/query', FLEET, [
        ['query', `count(${PROM_BILL})`],
        ['time', t],
      ]);
      expect(counted.body.data.result).toEqual([]);
      const inside = await prom<Vector>('/query', BILLING, [
        ['query', PROM_BILL],
        ['time', t],
      ]);
      expect(inside.body.data.result).toHaveLength(1);
    });

    it('a range query sees only the scope’s names', async () => {
      const params: [string, string][] = [
        ['query', 'count_over_time({__name__=~".+"}[5m])'],
        ['start', String((START + 10 * MINUTE) / 1000)],
        ['end', String((START + 40 * MINUTE) / 1000)],
        ['step', '300'],
      ];
      const series = async (token: string) =>
        (await prom<Matrix>('/query_range', token, params)).body.data.result.map((r) =>
          Object.keys(r.metric).sort().join(','),
        );
      // *_over_time drops __name__: the tags tell the metrics apart.
      expect(await series(FLEET)).toEqual(['road', 'road']);
      expect(await series(BILLING)).toEqual(['account']);
      expect((await series(TOKEN)).sort()).toEqual(['account', 'road', 'road']);
    });

    it('/labels, /label/…/values, /series and /metadata list only the scope’s metrics', async () => {
      const match: [string, string][] = [['match[]', '{__name__=~".+"}']];
      for (const [token, name, label, value] of [
        [FLEET, PROM_CARS, 'road', 'r1'],
        [BILLING, PROM_BILL, 'account', 'acme'],
      ] as const) {
        expect((await prom<string[]>('/labels', token)).body.data).toEqual(['__name__', label]);
        expect((await prom<string[]>('/labels', token, match)).body.data).toEqual([
          '__name__',
          label,
        ]);
        expect((await prom<string[]>('/label/__name__/values', token)).body.data).toEqual([name]);
        expect((await prom<string[]>('/label/__name__/values', token, match)).body.data).toEqual([
          name,
        ]);
        expect((await prom<string[]>(`/label/${label}/values`, token)).body.data).toContain(value);
        const other = label === 'road' ? 'account' : 'road';
        expect((await prom<string[]>(`/label/${other}/values`, token)).body.data).toEqual([]);
        const series = (await prom<Record<string, string>[]>('/series', token, match)).body.data;
        expect(names(series.map((metric) => ({ metric })))).toEqual([name]);
        const metadata = (await prom<Record<string, unknown>>('/metadata', token)).body.data;
        expect(Object.keys(metadata)).toEqual([name]);
        const otherName = name === PROM_CARS ? PROM_BILL : PROM_CARS;
        expect(
          (await prom<Record<string, unknown>>('/metadata', token, [['metric', otherName]])).body
            .data,
        ).toEqual({});
      }
      expect((await prom<string[]>('/label/__name__/values', TOKEN)).body.data).toEqual([
        PROM_BILL,
        PROM_CARS,
      ]);
      expect((await prom<string[]>('/labels', TOKEN)).body.data).toEqual([
        '__name__',
        'account',
        'road',
      ]);
    });

    it('a query kept for the plain token is not served to a scoped one', async () => {
      // The same URL, final (before the watermarks): kept after the first ask.
      const params: [string, string][] = [
        ['query', 'count({__name__=~".+"})'],
        ['time', String((START + 20 * MINUTE) / 1000)],
      ];
      const value = async (token: string) => {
        const res = await prom<{ result: { value: [number, string] }[] }>('/query', token, params);
        return { count: res.body.data.result[0]?.value[1], etag: res.headers.get('etag') };
      };
      const full = await value(TOKEN);
      const fleet = await value(FLEET);
      const billing = await value(BILLING);
      expect([full.count, fleet.count, billing.count]).toEqual(['3', '2', '1']);
      expect(new Set([full.etag, fleet.etag, billing.etag]).size).toBe(3);
      // Asked again in the other order: still each scope's own.
      expect((await value(BILLING)).count).toBe('1');
      expect((await value(TOKEN)).count).toBe('3');
    });
  });
});
