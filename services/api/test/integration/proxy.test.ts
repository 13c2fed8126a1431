/**
 * The caching proxy of the local stack (nginx, infra/local/proxy) in front of the API on the real
 * stack: with CACHE_SCOPE=public, a final window served from the proxy's cache without reaching
 * the API, an open one refreshed once its max-age has passed after the next flush, and every
 * request authenticated; with the default, private, nothing kept at all.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack, waitFor } from '@tickertape/testing';
import type { Db } from 'mongodb';
import { DEFAULT_CACHING } from '../../src/app.js';
import type { WindowBody } from '../../src/response-schemas.js';
import { OTHER_TOKEN, TOKEN, qs, startTestApi, type RunningApi } from '../support/api.js';
import { startProxy, type RunningProxy } from '../support/proxy.js';
import { NOW, at, dataset, storedTicks, writeTicks } from '../support/ticks.js';

const data = dataset(13);
const [s1, s2] = data.sensors as [string, string];
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Requests the API answered on a route, from its /metrics. */
async function answered(api: RunningApi, route: string): Promise<number> {
  const lines = (await api.metrics())
    .split('\n')
    .filter(
      (l) => l.startsWith('tickertape_api_requests_total{') && l.includes(`route="${route}"`),
    );
  return lines.reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

describe('the caching proxy in front of the API', () => {
  let stack: TestStack;
  let db: Db;
  let api: RunningApi;
  let proxy: RunningProxy;
  /** The same API with the default scope, private, behind a proxy of its own. */
  let privateApi: RunningApi;
  let privateProxy: RunningProxy;

  beforeAll(async () => {
    stack = await TestStack.open('api-proxy');
    const stored = await storedTicks(stack, data.ticks);
    db = stored.db;
    // The API's clock runs from NOW in real time, so open answers age; hour budget 2 s, so an
    // open answer's max-age is 2 s and the test sees it expire.
    const started = Date.now();
    const now = () => NOW + (Date.now() - started);
    api = await startTestApi(stored.stores, {
      reader: { now },
      now,
      caching: {
        ...DEFAULT_CACHING,
        scope: 'public',
        budgetsMs: { minute: 2_000, hour: 2_000, day: 2_000 },
      },
    });
    proxy = await startProxy(new URL(api.base).host);
    privateApi = await startTestApi(stored.stores, { reader: { now }, now });
    privateProxy = await startProxy(new URL(privateApi.base).host);
  }, 120_000);
  afterAll(async () => {
    await privateProxy?.close();
    await privateApi?.close();
    await proxy?.close();
    await api?.close();
    await stack?.close();
  });

  it('serves a final window from its cache, to every valid token and no one else', async () => {
    const path = `/api/v1/window${qs(['series', s1], ['series', s2], ['field', 'speed'], ['from', '2025-12-31T22:50Z'], ['to', '2025-12-31T23:50Z'])}`;
    const before = await answered(api, '/api/v1/window');
    const first = await proxy.get(path, bearer(TOKEN));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache-status')).toBe('MISS');
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    const second = await proxy.get(path, bearer(TOKEN));
    const other = await proxy.get(path, bearer(OTHER_TOKEN));
    for (const kept of [second, other]) {
      expect(kept.status).toBe(200);
      expect(kept.headers.get('x-cache-status')).toBe('HIT');
      expect(kept.text).toBe(first.text);
      expect(kept.headers.get('etag')).toBe(first.headers.get('etag'));
    }
    // The API answered the window once; the two others came from the proxy.
    expect((await answered(api, '/api/v1/window')) - before).toBe(1);

    // A kept answer is not served without a token the API accepts.
    for (const headers of [{}, bearer('not-a-token-we-know-of-0000')]) {
      const refused = await proxy.get(path, headers);
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain('rows');
    }
  });

  it('keeps one answer per format: a kept JSON answer is never served to a CSV request', async () => {
    const path = `/api/v1/window${qs(['series', s1], ['field', 'speed'], ['from', '2025-12-31T23:00Z'], ['to', '2025-12-31T23:30Z'])}`;
    const asJson = { ...bearer(TOKEN), Accept: 'application/json' };
    const asCsv = { ...bearer(TOKEN), Accept: 'text/csv' };
    const json = await proxy.get(path, asJson);
    expect(json.headers.get('x-cache-status')).toBe('MISS');
    expect((await proxy.get(path, asJson)).headers.get('x-cache-status')).toBe('HIT');
    // Another spelling of Accept that means JSON shares the entry: keyed by format, not by Accept.
    const anyType = await proxy.get(path, { ...bearer(TOKEN), Accept: '*/*' });
    expect(anyType.headers.get('x-cache-status')).toBe('HIT');
    expect(anyType.text).toBe(json.text);

    const csv = await proxy.get(path, asCsv);
    expect(csv.headers.get('x-cache-status')).toBe('MISS');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toMatch(/^time,time_ms,end,end_ms,series,/);
    const csvAgain = await proxy.get(path, { ...bearer(OTHER_TOKEN), Accept: 'text/csv' });
    expect(csvAgain.headers.get('x-cache-status')).toBe('HIT');
    expect(csvAgain.text).toBe(csv.text);
    // Accept spelled otherwise, or format= in the URI: the same representations, never crossed.
    for (const [asked, headers, want] of [
      [path, { ...bearer(TOKEN), Accept: 'text/csv;q=0.9, application/json;q=0.1' }, csv.text],
      [path, bearer(TOKEN), json.text],
      [`${path}&format=json`, asCsv, json.text],
      [`${path}&format=csv`, asJson, csv.text],
    ] as const) {
      const answer = await proxy.get(asked, headers);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(want);
    }
    const jsonAgain = await proxy.get(path, asJson);
    expect(jsonAgain.headers.get('x-cache-status')).toBe('HIT');
    expect(jsonAgain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(jsonAgain.text).toBe(json.text);
    expect(jsonAgain.headers.get('vary')).toBe('Accept, Authorization');
  });

  it('keeps nothing of an API with the default scope, private: each request reaches it', async () => {
    const path = `/api/v1/window${qs(['series', s1], ['field', 'speed'], ['from', '2025-12-31T22:50Z'], ['to', '2025-12-31T23:00Z'])}`;
    const before = await answered(privateApi, '/api/v1/window');
    const first = await privateProxy.get(path, bearer(TOKEN));
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, max-age=86400, immutable');
    expect(first.headers.get('vary')).toBe('Accept, Authorization');
    const other = await privateProxy.get(path, bearer(OTHER_TOKEN));
    expect(other.status).toBe(200);
    expect(other.headers.get('x-cache-status')).not.toBe('HIT');
    expect((await answered(privateApi, '/api/v1/window')) - before).toBe(2);
  });

  it('refreshes an open window after the next flush, once its max-age has passed', async () => {
    // Hour 00 is open: its minutes change when the hour level flushes.
    const from = at('2026-01-01T00:40:00Z');
    const path = `/api/v1/window${qs(['series', s1], ['field', 'speed'], ['from', from], ['to', from + 600_000])}`;
    const first = await proxy.get(path, bearer(TOKEN));
    expect(first.headers.get('x-cache-status')).toBe('MISS');
    expect(first.headers.get('cache-control')).toMatch(
      /^public, max-age=[12], stale-while-revalidate=/,
    );
    const n = (text: string) => (JSON.parse(text) as WindowBody).rows[0]!.n;

    // The next flush: one more tick of s1 in the open hour, through the real write path.
    const tick = data.ticks.find((t) => t.series === s1 && t.ts >= from)!;
    await writeTicks(db, [{ ...tick, ts: from + 1, offset: data.ticks.length }]);
    const kept = await proxy.get(path, bearer(TOKEN));
    expect(kept.headers.get('x-cache-status')).toBe('HIT');
    expect(n(kept.text)).toBe(n(first.text));

    // Past max-age the proxy asks the API again (serving the stale answer meanwhile) and
    // then serves the flushed tick.
    const seen: string[] = [];
    const fresh = await waitFor(
      async () => {
        const res = await proxy.get(path, bearer(TOKEN));
        seen.push(res.headers.get('x-cache-status') ?? '');
        return n(res.text) === n(first.text) + 1 ? res : undefined;
      },
      { description: 'the proxy serving the flushed tick', timeoutMs: 15_000, intervalMs: 250 },
    );
    expect(fresh.status).toBe(200);
    expect(
      seen.some((status) => ['EXPIRED', 'STALE', 'UPDATING', 'REVALIDATED'].includes(status)),
    ).toBe(true);
  });
});
