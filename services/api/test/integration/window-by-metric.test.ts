/**
 * The seed's question in one request: the 10-minute average speed of 50 sensors, selected by
 * metric and tags (`GET /api/v1/window?metric=…&tag=…&limit=50&field=speed&last=10m`), within the
 * read budget, with the same numbers as the request that lists all 50 series.
 */
import { storesOf } from '@tickertape/store';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import type { UnknownBody } from '../../src/api-error.js';
import type { WindowBody } from '../../src/response-schemas.js';
import { qs, startTestApi, type RunningApi } from '../support/api.js';
import { refWindow, ticksOf } from '../support/reference.js';
import { SECOND, at, writeTicks, type RefTick } from '../support/ticks.js';
import { testDatabase } from '@tickertape/store/testing';

const NOW = at('2026-01-01T01:15:30Z');
// The last 10 whole minutes up to and including the current one.
const FROM = at('2026-01-01T01:06:00Z');
const TO = at('2026-01-01T01:16:00Z');

/** 50 traffic sensors on road A1, 10 on road B2, and a metric that is not traffic. */
function ticks(): RefTick[] {
  const out: Omit<RefTick, 'offset'>[] = [];
  const add = (metric: string, tags: Record<string, string>, base: number) => {
    for (let ts = at('2026-01-01T00:50:00Z') + base * 7; ts < NOW; ts += 15 * SECOND)
      out.push({
        series: seriesKey(metric, tags),
        metric,
        tags,
        ts,
        fields: { speed: 40 + ((ts / SECOND + base) % 50) },
      });
  };
  for (let i = 0; i < 50; i++) add('traffic', { road: 'A1', sensor: `a${i}` }, i);
  for (let i = 0; i < 10; i++) add('traffic', { road: 'B2', sensor: `b${i}` }, 100 + i);
  add('weather', { road: 'A1', sensor: 'w0' }, 7);
  return out.sort((a, b) => a.ts - b.ts).map((tick, offset) => ({ ...tick, offset }));
}

describe('GET /api/v1/window by metric and tags', () => {
  let stack: TestStack;
  let api: RunningApi;
  const data = ticks();
  const road = (name: string) =>
    [
      ...new Set(
        data.filter((t) => t.tags.road === name && t.metric === 'traffic').map((t) => t.series),
      ),
    ].sort();

  beforeAll(async () => {
    stack = await TestStack.open('api-window-metric');
    const db = testDatabase(stack);
    await writeTicks(db, data);
    api = await startTestApi(await storesOf(db), { reader: { now: () => NOW } });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it("answers the seed's question in one request, within 100 documents, as the listed form does", async () => {
    const res = await api.get<WindowBody>(
      `/api/v1/window${qs(['metric', 'traffic'], ['tag', 'road:A1'], ['limit', 50], ['field', 'speed'], ['last', '10m'])}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.fromMs).toBe(FROM);
    expect(res.body.toMs).toBe(TO);
    expect(res.body.rows.map((r) => r.series).sort()).toEqual(road('A1'));
    expect(res.body.selected).toMatchObject({
      metric: 'traffic',
      tags: { road: 'A1' },
      series: 50,
      truncated: false,
    });
    // One hour bucket per sensor: the series come from the same documents the sums do.
    expect(res.body.examined).toBe(50);
    for (const row of res.body.rows)
      expect(row).toMatchObject(refWindow(ticksOf(data, row.series, 'speed', FROM, TO), 'speed'));

    const listed = await api.get<WindowBody>(
      `/api/v1/window${qs(...road('A1').map((s): [string, string] => ['series', s]), ['field', 'speed'], ['last', '10m'])}`,
    );
    expect(listed.status).toBe(200);
    const bySeries = (body: WindowBody) =>
      [...body.rows].sort((a, b) => a.series.localeCompare(b.series));
    expect(bySeries(res.body)).toEqual(bySeries(listed.body));
    expect(listed.body.selected).toBeUndefined();
  });

  it('reads two hour buckets per sensor across an hour boundary, still within 100 documents', async () => {
    const from = at('2026-01-01T00:55:00Z');
    const to = at('2026-01-01T01:05:00Z');
    const res = await api.get<WindowBody>(
      `/api/v1/window${qs(['metric', 'traffic'], ['tag', 'road:A1'], ['limit', 50], ['field', 'speed'], ['from', from], ['to', to])}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.pieces).toHaveLength(2);
    expect(res.body.examined).toBe(100);
    expect(res.body.rows.map((r) => r.series)).toEqual(road('A1'));
    for (const row of res.body.rows)
      expect(row).toMatchObject(refWindow(ticksOf(data, row.series, 'speed', from, to), 'speed'));
  });

  it('filters by tags and stops at the limit', async () => {
    const b2 = await api.get<WindowBody>(
      `/api/v1/window${qs(['metric', 'traffic'], ['tag', 'road:B2'], ['field', 'speed'], ['last', '10m'])}`,
    );
    expect(b2.body.rows.map((r) => r.series).sort()).toEqual(road('B2'));
    const limited = await api.get<WindowBody>(
      `/api/v1/window${qs(['metric', 'traffic'], ['limit', 7], ['field', 'speed'], ['last', '10m'])}`,
    );
    expect(limited.body.rows).toHaveLength(7);
    expect(limited.body.selected).toMatchObject({ series: 7, truncated: true });
  });

  it('answers an unknown metric 404 by name, and refuses a request naming the series twice or not at all', async () => {
    const none = await api.get<UnknownBody>(
      `/api/v1/window${qs(['metric', 'nothing'], ['field', 'speed'], ['last', '10m'])}`,
    );
    expect(none.status).toBe(404);
    expect(none.body.unknown.metrics).toEqual(['nothing']);

    for (const query of [
      qs(['field', 'speed'], ['last', '10m']),
      qs(['series', road('A1')[0]!], ['metric', 'traffic'], ['field', 'speed'], ['last', '10m']),
    ]) {
      const bad = await api.get<{ message: string }>(`/api/v1/window${query}`);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('give either series (repeatable) or metric');
    }
    const tagOnly = await api.get<{ message: string }>(
      `/api/v1/window${qs(['series', road('A1')[0]!], ['tag', 'road:A1'], ['field', 'speed'], ['last', '10m'])}`,
    );
    expect(tagOnly.status).toBe(400);
    expect(tagOnly.body.message).toContain('applies only with metric');
  });

  it('describes the metric form in the OpenAPI document', async () => {
    const doc = await api.get<{
      paths: Record<string, { get: { parameters: { name: string; description?: string }[] } }>;
    }>('/openapi.json');
    const names = doc.body.paths['/api/v1/window']!.get.parameters.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['series', 'metric', 'tag', 'limit', 'field', 'last']),
    );
  });
});
