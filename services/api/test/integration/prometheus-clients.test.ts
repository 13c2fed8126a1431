/**
 * Clients nobody here wrote, against the Prometheus API on the real database: promtool (Debian's
 * prometheus 2.42, which POSTs range queries and sends --header) asks the seed's question — the
 * 10-minute average speed of 50 sensors — and gets the exact averages of the ticks; the
 * `prometheus-query` npm client reads a range, the labels and the series.
 */
import { storesOf } from '@tickertape/store';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack, runProcess } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import { PrometheusDriver } from 'prometheus-query';
import { startTestApi, TOKEN, type RunningApi } from '../support/api.js';
import { agrees, minuteTimes, refOverTime } from '../support/prom-data.js';
import { MINUTE, SECOND, at, writeTicks, type RefTick } from '../support/ticks.js';
import { testDatabase } from '@tickertape/store/testing';

const START = at('2026-04-07T07:00:00Z');
const END = at('2026-04-07T08:00:00Z');

/** 50 sensors of one route, a reading every 5-25 s each (integers: exact sums). */
function routeTicks(): RefTick[] {
  const raw: Omit<RefTick, 'offset'>[] = [];
  for (let i = 0; i < 50; i++) {
    const tags = { route: 'r7', sensor: `s${String(i).padStart(2, '0')}` };
    for (
      let ts = START + i * 97, k = 0;
      ts < END;
      ts += 5 * SECOND + ((k * 7919 + i) % 20) * SECOND, k++
    )
      raw.push({
        series: seriesKey('traffic', tags),
        metric: 'traffic',
        tags,
        ts,
        fields: { speed: 30 + ((k * 31 + i * 17) % 70) },
      });
  }
  raw.sort((a, b) => a.ts - b.ts);
  return raw.map((tick, offset) => ({ ...tick, offset }));
}

describe('Prometheus clients against the /prometheus API', () => {
  let stack: TestStack;
  let api: RunningApi;
  const ticks = routeTicks();
  const bySeries = new Map<string, RefTick[]>();
  for (const tick of ticks) bySeries.set(tick.series, [...(bySeries.get(tick.series) ?? []), tick]);
  const ref = (
    series: string,
    fn: Parameters<typeof refOverTime>[3],
    end: number,
    rangeMs: number,
  ) => refOverTime(bySeries.get(series) ?? [], series, 'speed', fn, end, rangeMs);
  const from = START + 10 * MINUTE;
  const to = END;

  beforeAll(async () => {
    stack = await TestStack.open('api-prometheus-clients');
    const db = testDatabase(stack);
    await writeTicks(db, ticks);
    api = await startTestApi(await storesOf(db), { reader: { now: () => END + 10 * MINUTE } });
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it("promtool query range answers the seed's question with the exact 10-minute averages", async () => {
    const { code, stdout, stderr } = await runProcess(
      'promtool',
      [
        'query',
        'range',
        '--format=json',
        `--header=Authorization: Bearer ${TOKEN}`,
        `--start=${from / 1000}`,
        `--end=${to / 1000}`,
        '--step=1m',
        `${api.base}/prometheus`,
        'avg_over_time(traffic_speed{route="r7"}[10m])',
      ],
      { env: process.env },
    );
    if (code !== 0) throw new Error(`promtool failed (${code}): ${stderr}`);
    const matrix = JSON.parse(stdout) as {
      metric: Record<string, string>;
      values: [number, string][];
    }[];
    expect(matrix).toHaveLength(50);
    for (const row of matrix) {
      const series = seriesKey('traffic', row.metric);
      expect(row.values.map(([t]) => t * 1000)).toEqual(minuteTimes(from, to));
      for (const [t, v] of row.values) {
        const expected = ref(series, 'avg', t * 1000, 10 * MINUTE)!;
        if (!agrees(Number(v), expected)) throw new Error(`${series} at ${t}: ${v} vs ${expected}`);
      }
    }
    // The route's average of the sensors' averages, as a dashboard panel shows it.
    const mean = await runProcess(
      'promtool',
      [
        'query',
        'range',
        '--format=json',
        `--header=Authorization: Bearer ${TOKEN}`,
        `--start=${(to - MINUTE) / 1000}`,
        `--end=${to / 1000}`,
        '--step=1m',
        `${api.base}/prometheus`,
        'avg by (route) (avg_over_time(traffic_speed[10m]))',
      ],
      { env: process.env },
    );
    if (mean.code !== 0) throw new Error(`promtool failed (${mean.code}): ${mean.stderr}`);
    const [route] = JSON.parse(mean.stdout) as {
      metric: Record<string, string>;
      values: [number, string][];
    }[];
    const averages = [...new Set(ticks.map((t) => t.series))].map((s) =>
      ref(s, 'avg', to, 10 * MINUTE)!,
    );
    expect(route!.metric).toEqual({ route: 'r7' });
    expect(agrees(Number(route!.values[1]![1]), averages.reduce((a, b) => a + b, 0) / 50)).toBe(
      true,
    );
  }, 60_000);

  it('promtool without the token is refused', async () => {
    const { code, stderr } = await runProcess(
      'promtool',
      [
        'query',
        'range',
        `--start=${from / 1000}`,
        `--end=${to / 1000}`,
        '--step=1m',
        `${api.base}/prometheus`,
        'traffic_speed',
      ],
      { env: process.env },
    );
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/401|unauthorized/i);
  });

  it('the prometheus-query client reads a range, the label names and the series', async () => {
    const client = new PrometheusDriver({
      endpoint: api.base,
      baseURL: '/prometheus/api/v1',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const result = await client.rangeQuery(
      'max_over_time(traffic_speed{sensor="s07"}[5m])',
      new Date(from),
      new Date(from + 30 * MINUTE),
      60,
    );
    expect(result.resultType).toBe('matrix');
    const [row] = result.result as {
      metric: { labels: Record<string, string> };
      values: { time: Date; value: number }[];
    }[];
    expect(row!.metric.labels).toEqual({ route: 'r7', sensor: 's07' });
    expect(row!.values).toHaveLength(31);
    for (const { time, value } of row!.values)
      expect(value).toBe(
        ref(
          seriesKey('traffic', { route: 'r7', sensor: 's07' }),
          'max',
          time.getTime(),
          5 * MINUTE,
        ),
      );
    expect(await client.labelNames(undefined, new Date(START), new Date(END))).toEqual([
      '__name__',
      'route',
      'sensor',
    ]);
    const series = await client.series(
      'traffic_speed{sensor=~"s0[0-2]"}',
      new Date(START),
      new Date(END),
    );
    expect(series.map((m) => m.labels)).toEqual(
      expect.arrayContaining([0, 1, 2].map((i) => ({ route: 'r7', sensor: `s0${i}` }))),
    );
    expect(series.map((m) => m.name)).toEqual(['traffic_speed', 'traffic_speed', 'traffic_speed']);
  });
});
