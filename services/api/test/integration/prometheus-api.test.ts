/**
 * The Prometheus HTTP query API over the rollups (/prometheus/api/v1), on the real database:
 * every endpoint, each *_over_time function and aggregation against an independent fold of the
 * ticks (exact to 1e-9), PromQL we do not evaluate refused in Prometheus' error shape, tokens,
 * budgets, and the caching headers.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import { storesOf } from '@tickertape/store';
import { seriesKey } from '@tickertape/tick';
import type { Db } from 'mongodb';
import { readFileSync } from 'node:fs';
import { startTestApi, OTHER_TOKEN, type RunningApi } from '../support/api.js';
import {
  PROM_END,
  PROM_START,
  agrees,
  minuteTimes,
  promTicks,
  refOverTime,
  type OverTime,
} from '../support/prom-data.js';
import { MINUTE, SECOND, writeTicks } from '../support/ticks.js';
import { testDatabase } from '@tickertape/store/testing';

interface PromBody<T = unknown> {
  status: 'success' | 'error';
  data: T;
  errorType?: string;
  error?: string;
}
type Matrix = {
  resultType: 'matrix';
  result: { metric: Record<string, string>; values: [number, string][] }[];
};
type InstantVector = {
  resultType: 'vector';
  result: { metric: Record<string, string>; value: [number, string] }[];
};

const NOW = PROM_END + 5 * MINUTE;
const sec = (ms: number) => String(ms / 1000);

describe('the Prometheus query API', () => {
  let stack: TestStack;
  let api: RunningApi;
  let db: Db;
  const ticks = promTicks();
  const sensors = [...new Set(ticks.filter((t) => t.metric === 'traffic').map((t) => t.series))];
  const tagsOf = (series: string) => ticks.find((t) => t.series === series)!.tags;

  beforeAll(async () => {
    stack = await TestStack.open('api-prometheus');
    db = testDatabase(stack);
    // The dashboard's percentile panel reads the traffic sketches (several ticks a minute).
    await (
      await storesOf(db)
    ).rollups.changeMetricPolicy({ kind: 'sketch', metrics: ['traffic'], on: true }, Date.now());
    await writeTicks(db, ticks);
    // Two names that sanitise to one: refused, not merged.
    await writeTicks(db, [
      {
        series: seriesKey('a.b', {}),
        metric: 'a.b',
        tags: {},
        ts: PROM_START + 5,
        offset: 0,
        fields: { c: 1 },
      },
      {
        series: seriesKey('a_b', {}),
        metric: 'a_b',
        tags: {},
        ts: PROM_START + 7,
        offset: 1,
        fields: { c: 2 },
      },
    ]);
    // Final up to 10:00 at the minute and hour levels; the day (2026-03-02) is still open.
    const mark = PROM_START + 60 * MINUTE;
    await (
      await storesOf(db)
    ).rollups.advanceWatermarks({ minute: mark, hour: mark, day: Date.UTC(2026, 2, 2) }, NOW);
    api = await startTestApi(await storesOf(db), { reader: { now: () => NOW } });
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  const range = <T = Matrix>(query: string, start: number, end: number, step = '60s') =>
    api.get<PromBody<T>>(
      `/prometheus/api/v1/query_range?${new URLSearchParams({ query, start: sec(start), end: sec(end), step }).toString()}`,
    );
  const instant = <T = InstantVector>(query: string, time: number) =>
    api.get<PromBody<T>>(
      `/prometheus/api/v1/query?${new URLSearchParams({ query, time: sec(time) }).toString()}`,
    );

  const start = PROM_START + 20 * MINUTE;
  const end = PROM_START + 100 * MINUTE;

  it.each<OverTime>(['count', 'sum', 'avg', 'min', 'max', 'last', 'first'])(
    '%s_over_time(traffic_speed[10m]) equals the fold of the ticks at every step',
    async (fn) => {
      const answer = await range(`${fn}_over_time(traffic_speed{dir="E"}[10m])`, start, end);
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('success');
      const result = answer.body.data.result;
      const east = sensors.filter((s) => tagsOf(s).dir === 'E');
      expect(result).toHaveLength(east.length);
      for (const row of result) {
        const series = east.find((s) => tagsOf(s).segment === row.metric.segment)!;
        expect(row.metric).toEqual(
          fn === 'last' || fn === 'first'
            ? { __name__: 'traffic_speed', ...tagsOf(series) }
            : tagsOf(series),
        );
        const times = minuteTimes(start, end);
        expect(row.values.map(([t]) => t * 1000)).toEqual(times);
        row.values.forEach(([t, v]) => {
          const expected = refOverTime(ticks, series, 'speed', fn, t * 1000, 10 * MINUTE)!;
          if (!agrees(Number(v), expected)) throw new Error(`${fn} at ${t}: ${v} vs ${expected}`);
        });
      }
    },
  );

  it('sums and counts over a range of seconds (90s) and an hour range, with offset', async () => {
    const answer = await range(
      'count_over_time(stock_tick_price[90s] offset 1h)',
      end - 10 * MINUTE,
      end,
    );
    const [row] = answer.body.data.result;
    expect(row!.metric).toEqual({ symbol: 'ACME' });
    for (const [t, v] of row!.values)
      expect(Number(v)).toBe(
        refOverTime(
          ticks,
          seriesKey('stock.tick', { symbol: 'ACME' }),
          'price',
          'count',
          t * 1000 - 3_600_000,
          90 * SECOND,
        ),
      );
    const hourly = await range(
      'sum_over_time(traffic_flow{segment="I80_mile03"}[1h])',
      PROM_START + 60 * MINUTE,
      PROM_END,
      '1h',
    );
    const [flow] = hourly.body.data.result;
    for (const [t, v] of flow!.values)
      expect(Number(v)).toBe(refOverTime(ticks, sensors[3]!, 'flow', 'sum', t * 1000, 3_600_000));
  });

  it('aggregates by and without labels, ranks with topk and bottomk, applies scalars', async () => {
    const t = PROM_START + 60 * MINUTE;
    const avgOf = (series: string) => refOverTime(ticks, series, 'speed', 'avg', t, 10 * MINUTE)!;
    const byDir = await instant('avg by (dir) (avg_over_time(traffic_speed[10m]))', t);
    for (const dir of ['E', 'W']) {
      const members = sensors.filter((s) => tagsOf(s).dir === dir).map(avgOf);
      const row = byDir.body.data.result.find((r) => r.metric.dir === dir)!;
      expect(row.metric).toEqual({ dir });
      expect(
        agrees(Number(row.value[1]), members.reduce((a, b) => a + b, 0) / members.length),
      ).toBe(true);
    }
    const all = sensors.map(avgOf);
    const one = async (q: string) => Number((await instant(q, t)).body.data.result[0]!.value[1]);
    expect(
      agrees(
        await one('sum(avg_over_time(traffic_speed[10m]))'),
        all.reduce((a, b) => a + b, 0),
      ),
    ).toBe(true);
    expect(await one('min(avg_over_time(traffic_speed[10m]))')).toBe(Math.min(...all));
    expect(await one('max(avg_over_time(traffic_speed[10m]))')).toBe(Math.max(...all));
    expect(await one('count(avg_over_time(traffic_speed[10m]))')).toBe(8);
    const without = await instant('max without (segment) (max_over_time(traffic_speed[10m]))', t);
    expect(without.body.data.result.map((r) => r.metric)).toEqual([{ dir: 'E' }, { dir: 'W' }]);
    const top = await instant('topk(2, avg_over_time(traffic_speed[10m]))', t);
    expect(top.body.data.result.map((r) => Number(r.value[1])).sort((a, b) => b - a)).toEqual(
      [...all].sort((a, b) => b - a).slice(0, 2),
    );
    const bottom = await instant('bottomk(1, avg_over_time(traffic_speed[10m]))', t);
    expect(Number(bottom.body.data.result[0]!.value[1])).toBe(Math.min(...all));
    const scaled = await instant(
      'avg_over_time(traffic_speed{segment="I80_mile01"}[10m]) * 3.6 - 1',
      t,
    );
    expect(agrees(Number(scaled.body.data.result[0]!.value[1]), avgOf(sensors[1]!) * 3.6 - 1)).toBe(
      true,
    );
    const filtered = await instant('avg_over_time(traffic_speed[10m]) > 60', t);
    expect(filtered.body.data.result).toHaveLength(all.filter((v) => v > 60).length);
    // Two vectors, one to one on their tags: each sensor's speed per unit of flow.
    const ratio = await instant(
      'sum_over_time(traffic_speed{dir="W"}[10m]) / sum_over_time(traffic_flow{dir="W"}[10m])',
      t,
    );
    expect(ratio.body.data.result).toHaveLength(4);
    for (const row of ratio.body.data.result) {
      const series = sensors.find((s) => tagsOf(s).segment === row.metric.segment)!;
      const bySeries = (field: string) => refOverTime(ticks, series, field, 'sum', t, 10 * MINUTE)!;
      expect(row.metric).toEqual(tagsOf(series));
      expect(agrees(Number(row.value[1]), bySeries('speed') / bySeries('flow'))).toBe(true);
    }
    const flags = await instant('avg_over_time(traffic_speed[10m]) > bool 60', t);
    expect(flags.body.data.result.map((r) => r.value[1]).sort()).toEqual(
      all.map((v) => (v > 60 ? '1' : '0')).sort(),
    );
  });

  it('answers a bare selector with the last tick at or before the time, within 5 minutes', async () => {
    const t = PROM_START + 45 * MINUTE;
    const answer = await instant('traffic_speed{segment=~"I80_mile0[12]"}', t);
    answer.body.data.result.sort((a, b) => (a.metric.segment! < b.metric.segment! ? -1 : 1));
    expect(answer.body.data.result.map((r) => r.metric)).toEqual([
      { __name__: 'traffic_speed', ...tagsOf(sensors[1]!) },
      { __name__: 'traffic_speed', ...tagsOf(sensors[2]!) },
    ]);
    answer.body.data.result.forEach((row, i) =>
      expect(Number(row.value[1])).toBe(
        refOverTime(ticks, sensors[i + 1]!, 'speed', 'last', t, 5 * MINUTE),
      ),
    );
    const scalar = await instant<{ resultType: 'scalar'; result: [number, string] }>('2 * 21', t);
    expect(scalar.body.data).toEqual({ resultType: 'scalar', result: [t / 1000, '42'] });
  });

  it('takes POSTed forms as promtool and Grafana send them', async () => {
    const response = await fetch(`${api.base}/prometheus/api/v1/query_range`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${OTHER_TOKEN}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        query: 'count(traffic_speed)',
        start: sec(start),
        end: sec(start + 2 * MINUTE),
        step: '1m',
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as PromBody<Matrix>;
    expect(body.data.result).toEqual([
      { metric: {}, values: minuteTimes(start, start + 2 * MINUTE).map((t) => [t / 1000, '8']) },
    ]);
  });

  it('lists labels, label values, series and metadata, and says what it is', async () => {
    const window = `start=${sec(PROM_START)}&end=${sec(PROM_END)}`;
    const labels = await api.get<PromBody<string[]>>(`/prometheus/api/v1/labels?${window}`);
    expect(labels.body.data).toEqual(['__name__', 'dir', 'segment', 'symbol']);
    const names = await api.get<PromBody<string[]>>(
      `/prometheus/api/v1/label/__name__/values?${window}`,
    );
    expect(names.body.data).toEqual(['a_b_c', 'stock_tick_price', 'traffic_flow', 'traffic_speed']);
    const dirs = await api.get<PromBody<string[]>>(`/prometheus/api/v1/label/dir/values?${window}`);
    expect(dirs.body.data).toEqual(['E', 'W']);
    const matched = await api.get<PromBody<string[]>>(
      `/prometheus/api/v1/label/segment/values?${window}&match[]=${encodeURIComponent('traffic_speed{dir="W"}')}`,
    );
    expect(matched.body.data).toEqual(['I80_mile01', 'I80_mile03', 'I80_mile05', 'I80_mile07']);
    const series = await api.get<PromBody<Record<string, string>[]>>(
      `/prometheus/api/v1/series?${window}&match[]=stock_tick_price&match[]=${encodeURIComponent('traffic_flow{segment="I80_mile00"}')}`,
    );
    expect(series.body.data).toEqual(
      expect.arrayContaining([
        { __name__: 'stock_tick_price', symbol: 'ACME' },
        { __name__: 'traffic_flow', segment: 'I80_mile00', dir: 'E' },
      ]),
    );
    expect(series.body.data).toHaveLength(2);
    const metadata = await api.get<PromBody<Record<string, { type: string }[]>>>(
      `/prometheus/api/v1/metadata?${window}`,
    );
    expect(metadata.body.data.traffic_speed).toEqual([expect.objectContaining({ type: 'gauge' })]);
    const build = await api.get<PromBody<{ version: string }>>(
      '/prometheus/api/v1/status/buildinfo',
    );
    expect(build.body.data.version).toMatch(/^2\./);
  });

  it('answers every query of the provisioned Grafana dashboard (infra/grafana/rollups.json)', async () => {
    const dashboard = JSON.parse(
      readFileSync(new URL('../../../../infra/grafana/rollups.json', import.meta.url), 'utf8'),
    ) as {
      panels: { targets: { expr: string }[] }[];
      templating: { list: { query: { query: string } }[] };
    };
    const chosen = (expr: string) =>
      expr
        .replaceAll('$segment', 'I80_mile0[0-3]')
        .replaceAll('$symbol', 'ACME')
        .replaceAll('$__interval', '2m');
    for (const { targets } of dashboard.panels)
      for (const { expr } of targets) {
        const answer = await range(chosen(expr), start, end);
        expect({ expr, status: answer.status, series: answer.body.data.result.length > 0 }).toEqual(
          {
            expr,
            status: 200,
            series: true,
          },
        );
      }
    // Its variables: label_values(name, label) is Grafana's /label/<label>/values?match[]=name.
    for (const { query } of dashboard.templating.list) {
      const [, name, label] = /^label_values\((\w+), (\w+)\)$/.exec(query.query)!;
      const values = await api.get<PromBody<string[]>>(
        `/prometheus/api/v1/label/${label}/values?match[]=${name}&start=${sec(start)}&end=${sec(end)}`,
      );
      expect(values.body.data.length).toBeGreaterThan(0);
    }
  });

  it.each([
    ['rate(traffic_flow[5m])', /counters; ticks are gauges/],
    ['histogram_quantile(0.9, traffic_speed)', /not supported/],
    ['traffic_speed[5m:1m]', /subqueries/],
    ['sum(', /syntax error/],
    ['traffic_speed / on(a) 2', /not a vector and a number/],
    ['1 < 2', /bool modifier/],
  ])('refuses %s with 400 bad_data', async (query, message) => {
    const answer = await instant<never>(query, PROM_START + 30 * MINUTE);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 'error',
      errorType: 'bad_data',
      error: expect.stringMatching(message),
    });
  });

  // Prometheus' web/api/v1: what its engine meets while evaluating against the data is 422
  // `execution`, as opposed to what is wrong with the request (400 `bad_data`).
  it.each([
    ['traffic_speed / on(dir) traffic_flow', /duplicate series for the match group/],
    ['avg_over_time({__name__=~"traffic_.*",dir="E"}[5m])', /same labelset/],
    ['a_b_c', /is both metric "a\.b" field "c" and metric "a_b" field "c"/],
  ])('answers %s, which the data makes fail, with 422 execution', async (query, message) => {
    const answer = await instant<never>(query, PROM_START + 30 * MINUTE);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      status: 'error',
      errorType: 'execution',
      error: expect.stringMatching(message),
    });
  });

  it('refuses a label name Prometheus would not take with 400 bad_data', async () => {
    for (const name of ['0', 'dir-x', 'é']) {
      const answer = await api.get<PromBody>(
        `/prometheus/api/v1/label/${encodeURIComponent(name)}/values`,
      );
      expect({ name, status: answer.status, body: answer.body }).toEqual({
        name,
        status: 400,
        body: {
          status: 'error',
          errorType: 'bad_data',
          error: `invalid label name: ${JSON.stringify(name)}`,
        },
      });
    }
  });

  it('refuses bad parameters, missing tokens and unknown endpoints in its error shape', async () => {
    const badStep = await api.get<PromBody>(
      `/prometheus/api/v1/query_range?query=traffic_speed&start=1&end=0&step=1m`,
    );
    expect(badStep.status).toBe(400);
    expect(badStep.body.error).toMatch(/end timestamp must not be before start/);
    const noToken = await api.get<PromBody>('/prometheus/api/v1/query?query=traffic_speed', null);
    expect(noToken.status).toBe(401);
    expect(noToken.body).toMatchObject({ status: 'error', errorType: 'unauthorized' });
    const wrong = await api.get<PromBody>('/prometheus/api/v1/labels', 'not-a-token');
    expect(wrong.status).toBe(401);
    const missing = await api.get<PromBody>('/prometheus/api/v1/query_exemplars');
    expect(missing.status).toBe(404);
    expect(missing.body.status).toBe('error');
  });

  it('refuses a query over the document or series budget with 422 execution, before reading', async () => {
    const small = await startTestApi(await storesOf(db), {
      reader: { now: () => NOW, limits: { maxDocuments: 10 } },
    });
    try {
      const answer = await small.get<PromBody>(
        `/prometheus/api/v1/query_range?${new URLSearchParams({ query: 'avg_over_time(traffic_speed[1m])', start: sec(PROM_START), end: sec(PROM_END), step: '60s' }).toString()}`,
      );
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({
        status: 'error',
        errorType: 'execution',
        error: expect.stringMatching(/24 documents \(8 series × hour buckets\); the limit is 10/),
      });
    } finally {
      await small.close();
    }
    const few = await startTestApi(await storesOf(db), {
      reader: { now: () => NOW, limits: { maxSeries: 3 } },
    });
    try {
      const answer = await few.get<PromBody>(
        `/prometheus/api/v1/query?${new URLSearchParams({ query: 'count(traffic_speed)', time: sec(end) }).toString()}`,
      );
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({
        status: 'error',
        errorType: 'execution',
        error: expect.stringMatching(/matches more than 3 series/),
      });
    } finally {
      await few.close();
    }
  });

  it('sends a strong ETag, 304 on a match, and says whether the data was final', async () => {
    const path = (to: number) =>
      `/prometheus/api/v1/query_range?${new URLSearchParams({ query: 'avg_over_time(traffic_speed[10m])', start: sec(start), end: sec(to), step: '60s' }).toString()}`;
    const final = await api.get(path(PROM_START + 60 * MINUTE));
    expect(final.headers.get('x-tickertape-final')).toBe('true');
    expect(final.headers.get('cache-control')).toBe('private, max-age=86400, immutable');
    const etag = final.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await api.get(path(PROM_START + 60 * MINUTE), undefined, {
      'If-None-Match': etag,
    });
    expect(again.status).toBe(304);
    // Past the watermark: served (Grafana shows the present), marked, kept no longer than a flush.
    const open = await api.get(path(end));
    expect(open.status).toBe(200);
    expect(open.headers.get('x-tickertape-final')).toBe('false');
    expect(open.headers.get('cache-control')).toMatch(
      /^private, max-age=\d+, stale-while-revalidate=\d+$/,
    );
  });
});
