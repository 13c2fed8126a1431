/**
 * quantile_over_time, stddev_over_time and stdvar_over_time through the Prometheus API on the
 * real database: exact against an independent fold of the ticks where every minute holds one
 * tick (instant and range, inside aggregations, with offset), and, where minutes hold several
 * ticks, either exact from the buckets' parts or left out and named in `warnings` — never a guess.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import { TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import { startTestApi, type RunningApi } from '../support/api.js';
import { agrees, minuteTimes, refSpreadOverTime } from '../support/prom-data.js';
import { MINUTE, SECOND, at, writeTicks, type RefTick } from '../support/ticks.js';

const START = at('2026-05-04T06:00:00Z');
const END = at('2026-05-04T08:00:00Z');
const NOW = END + 10 * MINUTE;

interface Body<T> {
  status: string;
  data: { resultType: string; result: T[] };
  warnings?: string[];
}
type Row = { metric: Record<string, string>; values: [number, string][] };
type Sample = { metric: Record<string, string>; value: [number, string] };

/**
 * Three tanks with one reading a minute (at a different second each minute), across five decades,
 * both signs and zero; two pumps with a reading every 5-15 s (several a minute).
 */
function ticks(): RefTick[] {
  const raw: Omit<RefTick, 'offset'>[] = [];
  for (let k = 0; k < 3; k++) {
    const tags = { tank: `t${k}`, site: k < 2 ? 'north' : 'south' };
    for (let m = 0; m < (END - START) / MINUTE; m++) {
      if ((m * 13 + k) % 17 === 0) continue;
      const magnitude = 10 ** (((m * 7 + k * 3) % 11) / 2 - 2);
      const sign = (m + k) % 5 === 0 ? -1 : 1;
      const value = (m + k) % 9 === 0 ? 0 : (sign * Math.round(magnitude * 4096)) / 4096;
      raw.push({
        series: seriesKey('tank', tags),
        metric: 'tank',
        tags,
        ts: START + m * MINUTE + ((m * 31 + k * 7) % 60) * SECOND,
        fields: { level: value },
      });
    }
  }
  for (let p = 0; p < 2; p++) {
    const tags = { pump: `p${p}` };
    for (
      let ts = START + p * 1000, i = 0;
      ts < END;
      ts += 5 * SECOND + ((i * 7) % 11) * SECOND, i++
    )
      raw.push({
        series: seriesKey('pump', tags),
        metric: 'pump',
        tags,
        ts,
        fields: { rpm: 1000 + ((i * 37 + p * 11) % 300) },
      });
  }
  raw.sort((a, b) => a.ts - b.ts);
  return raw.map((tick, offset) => ({ ...tick, offset }));
}

describe('spread and quantiles through the Prometheus API', () => {
  let stack: TestStack;
  let api: RunningApi;
  const all = ticks();
  const tanks = [0, 1, 2].map((k) =>
    seriesKey('tank', { tank: `t${k}`, site: k < 2 ? 'north' : 'south' }),
  );
  const pumps = [0, 1].map((p) => seriesKey('pump', { pump: `p${p}` }));
  const sec = (ms: number) => String(ms / 1000);
  const range = (query: string, start: number, end: number) =>
    api.get<Body<Row>>(
      `/prometheus/api/v1/query_range?${new URLSearchParams({ query, start: sec(start), end: sec(end), step: '60s' }).toString()}`,
    );
  const instant = (query: string, time: number) =>
    api.get<Body<Sample>>(
      `/prometheus/api/v1/query?${new URLSearchParams({ query, time: sec(time) }).toString()}`,
    );
  const from = START + 30 * MINUTE;
  const to = START + 90 * MINUTE;

  beforeAll(async () => {
    stack = await TestStack.open('api-prometheus-spread');
    const db = testDatabase(stack);
    await writeTicks(db, all);
    api = await startTestApi(await storesOf(db), { reader: { now: () => NOW } });
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it.each<[string, Parameters<typeof refSpreadOverTime>[3]]>([
    ['quantile_over_time(0.85, tank_level[10m])', { quantile: 0.85 }],
    ['quantile_over_time(0, tank_level[10m])', { quantile: 0 }],
    ['quantile_over_time(1, tank_level[30m])', { quantile: 1 }],
    ['quantile_over_time(0.5, tank_level[1h])', { quantile: 0.5 }],
    ['stddev_over_time(tank_level[10m])', 'stddev'],
    ['stdvar_over_time(tank_level[30m])', 'stdvar'],
  ])('%s at one tick a minute equals the fold of the ticks at every step', async (query, fn) => {
    const answer = await range(query, from, to);
    expect(answer.status).toBe(200);
    expect(answer.body.warnings).toBeUndefined();
    const rangeMs =
      Number(/\[(\d+)([mh])\]/.exec(query)![1]) * (query.includes('h]') ? 60 : 1) * MINUTE;
    expect(answer.body.data.result.map((r) => r.metric)).toEqual([
      { site: 'north', tank: 't0' },
      { site: 'north', tank: 't1' },
      { site: 'south', tank: 't2' },
    ]);
    answer.body.data.result.forEach((row, k) => {
      expect(row.values.map(([t]) => t * 1000)).toEqual(minuteTimes(from, to));
      for (const [t, v] of row.values) {
        const expected = refSpreadOverTime(all, tanks[k]!, 'level', fn, t * 1000, rangeMs)!;
        if (!agrees(Number(v), expected)) throw new Error(`${query} at ${t}: ${v} vs ${expected}`);
      }
    });
  });

  it('aggregates them by label, with offset, at an instant; φ out of [0, 1] is ±Inf', async () => {
    const t = START + 61 * MINUTE + 20 * SECOND;
    const end = START + 61 * MINUTE - 5 * MINUTE;
    const ref = (k: number, fn: Parameters<typeof refSpreadOverTime>[3]) =>
      refSpreadOverTime(all, tanks[k]!, 'level', fn, end, 10 * MINUTE)!;
    const max = await instant('max by (site) (stddev_over_time(tank_level[10m] offset 5m))', t);
    expect(max.body.data.result.map((r) => r.metric)).toEqual([
      { site: 'north' },
      { site: 'south' },
    ]);
    expect(
      agrees(
        Number(max.body.data.result[0]!.value[1]),
        Math.max(ref(0, 'stddev'), ref(1, 'stddev')),
      ),
    ).toBe(true);
    expect(agrees(Number(max.body.data.result[1]!.value[1]), ref(2, 'stddev'))).toBe(true);
    const top = await instant('topk(1, quantile_over_time(0.9, tank_level[10m] offset 5m))', t);
    const q = [0, 1, 2].map((k) => ref(k, { quantile: 0.9 }));
    const best = q.indexOf(Math.max(...q));
    expect(top.body.data.result).toEqual([
      {
        metric: { site: best < 2 ? 'north' : 'south', tank: `t${best}` },
        value: [Number(sec(t)), expect.any(String)],
      },
    ]);
    expect(agrees(Number(top.body.data.result[0]!.value[1]), q[best]!)).toBe(true);
    for (const [phi, value] of [
      ['-1', '-Inf'],
      ['1.5', '+Inf'],
    ] as const) {
      const out = await instant(`quantile_over_time(${phi}, tank_level{tank="t0"}[10m])`, t);
      expect(out.body.data.result.map((r) => r.value[1])).toEqual([value]);
    }
  });

  it('never guesses where minutes hold several ticks: exact from the parts, or left out and warned', async () => {
    for (const [query, fn] of [
      ['stddev_over_time(pump_rpm[10m])', 'stddev'],
      ['quantile_over_time(0.99, pump_rpm[10m])', { quantile: 0.99 }],
    ] as const) {
      const answer = await range(query, from, to);
      expect(answer.status).toBe(200);
      const present = answer.body.data.result.map((r) => r.metric.pump);
      for (const row of answer.body.data.result) {
        const series = pumps[Number(row.metric.pump!.slice(1))]!;
        for (const [t, v] of row.values) {
          const expected = refSpreadOverTime(all, series, 'rpm', fn, t * 1000, 10 * MINUTE)!;
          // The sketch answers within α; the spread from Σx² exactly.
          const ok =
            typeof fn === 'object'
              ? Math.abs(Number(v) - expected) <= 0.01 * expected
              : agrees(Number(v), expected);
          if (!ok) throw new Error(`${query} at ${t}: ${v} vs ${expected}`);
        }
      }
      const missing = ['p0', 'p1'].filter((p) => !present.includes(p));
      if (missing.length === 0) expect(answer.body.warnings).toBeUndefined();
      else
        expect(answer.body.warnings).toEqual([
          expect.stringMatching(
            new RegExp(
              `^${query.split('(')[0]}: samples left out, not estimated, .*${missing.map((p) => `pump_rpm\\{pump="${p}"\\} \\(61 of 61 steps\\)`).join(', ')}$`,
            ),
          ),
        ]);
    }
    // The metric keeps no sketch (sketches are opt-in): its quantiles are all left out.
    const quantile = await range('quantile_over_time(0.99, pump_rpm[10m])', from, to);
    expect(quantile.body.data.result).toEqual([]);
    expect(quantile.body.warnings).toHaveLength(1);
  });
});
